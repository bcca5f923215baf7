import type {
  Bundle,
  CodeableConcept,
  CoverageEligibilityResponse,
  CoverageEligibilityResponseError,
  CoverageEligibilityResponseInsurance,
  CoverageEligibilityResponseInsuranceItem as Item,
  Period,
} from '@medplum/fhirtypes';
import type { EligibilityBody, FiguredAnswer } from '../eligibility/route.js';
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
 * numbers the answer was formatted from (the route hands them over beside the body), never its text.
 */

export type EligibilityAnswer = FiguredAnswer['body'];

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

/** Every item of the answer, in the order services, plan-wide (when no service 30), procedures. */
function itemsOfAnswer({ figures }: FiguredAnswer, context: RequestContext): Item[] {
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

function insuranceOf(figured: FiguredAnswer, context: RequestContext): CoverageEligibilityResponseInsurance[] {
  if (!context.coverage) return [];
  const answer = figured.body;
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
    const items = itemsOfAnswer(figured, context);
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

/** A 200 eligibility answer (real or mock) and its figures as a Bundle; its notices join the disposition. */
export function answerBundle(figured: FiguredAnswer, context: RequestContext, stamp: Stamp): Bundle {
  const answer = figured.body;
  const notices = isReal(answer) ? answer.notices.map((notice) => notice.message) : [];
  const sentence = /[.!?]$/.test(answer.message) ? answer.message : `${answer.message}.`;
  const disposition = [sentence, ...notices].join(' ');
  const created = isReal(answer) ? { ...stamp, created: answer.checkedAt } : stamp;
  const response = baseResponse(context, created, 'complete', disposition);
  const insurance = insuranceOf(figured, context);
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
