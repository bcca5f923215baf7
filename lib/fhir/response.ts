import type {
  Bundle,
  CodeableConcept,
  CoverageEligibilityResponse,
  CoverageEligibilityResponseError,
  CoverageEligibilityResponseInsurance,
  CoverageEligibilityResponseInsuranceItem as Item,
  Period,
} from '@medplum/fhirtypes';
import type { MockEligibilityBody } from '../eligibility/mock.js';
import { figuresBehind, type AnswerFigures } from '../eligibility/present.js';
import type { EligibilityBody } from '../eligibility/route.js';
import type { AaaRejection } from '../errors/index.js';
import { SERVICE_TYPE_CODES } from '../x12/service-type-codes.js';
import { INFORCE, SYSTEMS } from './codes.js';
import { itemsOf } from './items.js';
import type { RequestContext } from './request.js';

/**
 * Our answer → a Bundle holding one CoverageEligibilityResponse (docs/fhir.md#the-answer). A real check
 * gives one group of items per `benefits` entry and per procedure; a mock answer (or a real one without a
 * `30` entry) gives its plan-wide blocks as service type 30, health benefit plan coverage. A payer's
 * rejection is an answer too: outcome `error`, its AAA reasons in `error[]`. The figures are the
 * numbers the answer was formatted from (lib/eligibility/present.ts#figuresBehind), never its text.
 */

export type EligibilityAnswer = EligibilityBody | MockEligibilityBody;

/** When the answer was made and the id of its Bundle entry (injected: tests fix both). */
export interface Stamp {
  created: string;
  id: string;
}

const PLAN_SERVICE_TYPE = '30';

const serviceType = (code: string, name = SERVICE_TYPE_CODES[code] ?? code): CodeableConcept => ({
  coding: [{ system: SYSTEMS.x12ServiceType, code, display: name }],
});

const isReal = (answer: EligibilityAnswer): answer is EligibilityBody => 'checkedAt' in answer;

/** The numbers behind an answer of the eligibility route (which every answer given here is). */
function figuresOf(answer: EligibilityAnswer): AnswerFigures {
  const figures = figuresBehind(answer);
  if (figures === undefined) throw new Error('The FHIR answer needs the eligibility body as the eligibility route built it');
  return figures;
}

/** Every item of the answer, in the order services, plan-wide (when no service 30), procedures. */
function itemsOfAnswer(answer: EligibilityAnswer, context: RequestContext): Item[] {
  const figures = figuresOf(answer);
  const benefits = figures.benefits ?? [];
  const items: Item[] = benefits.flatMap((entry) =>
    itemsOf(
      {
        category: serviceType(entry.serviceType.code, entry.serviceType.name),
        name: entry.serviceType.name,
        status: entry.status,
        authorizationRequired: entry.authorizationRequired,
        authorization: entry.authorization,
        authorizationNotes: entry.authorizationNotes,
      },
      entry,
    ),
  );
  if (!benefits.some((entry) => entry.serviceType.code === PLAN_SERVICE_TYPE)) {
    items.push(...itemsOf({ category: serviceType(PLAN_SERVICE_TYPE), name: SERVICE_TYPE_CODES[PLAN_SERVICE_TYPE] }, figures));
  }
  for (const procedure of figures.procedures ?? []) {
    const concept = context.procedures[procedure.code] ?? { coding: [{ code: procedure.code }] };
    const { authorizationRequired, authorization, authorizationNotes } = procedure;
    items.push(...itemsOf({ productOrService: structuredClone(concept), authorizationRequired, authorization, authorizationNotes }, procedure));
  }
  return items;
}

function insuranceOf(answer: EligibilityAnswer, context: RequestContext): CoverageEligibilityResponseInsurance[] {
  if (!context.coverage) return [];
  const insurance: CoverageEligibilityResponseInsurance = { coverage: context.coverage };
  if (isReal(answer)) {
    const inforce = INFORCE[answer.coverageStatus];
    if (inforce !== undefined) insurance.inforce = inforce;
    const period: Period = {};
    if (answer.plan.planBegin) period.start = answer.plan.planBegin;
    if (answer.plan.planEnd) period.end = answer.plan.planEnd;
    if (period.start || period.end) insurance.benefitPeriod = period;
  }
  if (context.purpose.includes('benefits')) {
    const items = itemsOfAnswer(answer, context);
    if (items.length > 0) insurance.item = items;
  }
  return [insurance];
}

function baseResponse(context: RequestContext, stamp: Stamp, outcome: 'complete' | 'error', disposition: string): CoverageEligibilityResponse {
  const response: CoverageEligibilityResponse = {
    resourceType: 'CoverageEligibilityResponse',
    status: 'active',
    purpose: [...context.purpose],
    patient: context.patient,
    created: stamp.created,
    request: context.request,
    outcome,
    disposition,
    insurer: context.insurer,
  };
  if (context.provider) response.requestor = context.provider;
  return response;
}

const bundleOf = (resource: CoverageEligibilityResponse, stamp: Stamp): Bundle => ({
  resourceType: 'Bundle',
  type: 'collection',
  timestamp: stamp.created,
  entry: [{ fullUrl: `urn:uuid:${stamp.id}`, resource }],
});

/** A 200 eligibility answer (real or mock) as a Bundle; its notices join the disposition. */
export function answerBundle(answer: EligibilityAnswer, context: RequestContext, stamp: Stamp): Bundle {
  const notices = isReal(answer) ? answer.notices.map((notice) => notice.message) : [];
  const sentence = /[.!?]$/.test(answer.message) ? answer.message : `${answer.message}.`;
  const disposition = [sentence, ...notices].join(' ');
  const created = isReal(answer) ? { ...stamp, created: answer.checkedAt } : stamp;
  const response = baseResponse(context, created, 'complete', disposition);
  const insurance = insuranceOf(answer, context);
  if (insurance.length > 0) response.insurance = insurance;
  return bundleOf(response, created);
}

/** The payer's rejection (AAA) as outcome `error`, each reason an `error[]` coded with X12 reject reason codes. */
export function rejectionBundle(message: string, rejections: readonly AaaRejection[], context: RequestContext, stamp: Stamp): Bundle {
  const response = baseResponse(context, stamp, 'error', message);
  response.error = rejections.map(
    (rejection): CoverageEligibilityResponseError => ({
      code: {
        coding: [{ system: SYSTEMS.x12RejectReason, code: rejection.code, display: rejection.description }],
        text: `${rejection.description} (loop ${rejection.loop}). Follow-up: ${rejection.followUpAction}`,
      },
    }),
  );
  if (response.error.length === 0) delete response.error;
  return bundleOf(response, stamp);
}
