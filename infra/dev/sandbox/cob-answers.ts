/**
 * Sandbox answers for Stedi's Coordination of Benefits Check (POST /coordination-of-benefits), in
 * Stedi's JSON shape, for a documented set of test patients, and for every patient of the eligibility
 * sandbox (infra/sandbox/patients.ts), so `runCobCheck: true` works on each of them. A request is
 * matched on subscriber last name + first name (case-insensitive) + member id (exact), and on the
 * dependent fields when it has them (first and last name case-insensitive, date of birth exact when
 * given); a dependent the payer knows may also be named as the patient under the family's member id.
 * Anything else gets the payer's "subscriber not found" answer (AAA 75, HTTP 400), as Stedi gives.
 */
import { type CobCode, isMedicarePayer, type StediCobRequest } from '../../../lib/cob/index.js';
import { usDateToIso } from '../../../lib/validation/index.js';
import { SANDBOX_PATIENTS, type SandboxFault, type SandboxPatient } from './patients.js';
import { COB_ONLY_PATIENTS, type CobSandboxPatient, FLAGS, MEDICAL, type OtherPlan, type Scenario } from './cob-patients.js';

export type { CobSandboxPatient } from './cob-patients.js';

const PAYER_NAME = 'SANDBOX HEALTH PLAN';

/**
 * Two patients of the eligibility sandbox (infra/sandbox/patients.ts) answer COB as well, so
 * `runCobCheck: true` on them shows a COB result rather than "subscriber not found".
 */
function sameAnswerAs(
  lastName: string,
  identity: Pick<CobSandboxPatient, 'firstName' | 'lastName' | 'dateOfBirth' | 'memberId' | 'payerId'>,
  note: string,
): CobSandboxPatient {
  const source = COB_ONLY_PATIENTS.find((patient) => patient.lastName === lastName);
  if (!source) throw new Error(`no COB sandbox patient ${lastName}`);
  return { ...source, ...identity, note };
}

const NAMED_PATIENTS: readonly CobSandboxPatient[] = [
  ...COB_ONLY_PATIENTS,
  sameAnswerAs(
    'Garcia',
    { firstName: 'Maria', lastName: 'Garcia', dateOfBirth: '04-12-1985', memberId: 'PPO100001', payerId: 'SBXPPO' },
    'The eligibility sandbox PPO patient: no other coverage.',
  ),
  {
    firstName: 'David',
    lastName: 'Chen',
    dateOfBirth: '09-30-1978',
    memberId: 'HMO200002',
    payerId: 'SBXHMO',
    expected: { cobCode: 'CobInstanceExistsPrimacyDetermined' },
    note: 'The eligibility sandbox HMO patient: also covered by his own PPO plan from a second job, which pays second.',
    answer: {
      status: 200,
      scenario: {
        classification: 'CobInstanceExistsPrimacyDetermined',
        flags: FLAGS.determined,
        planBegin: '2025-01-01',
        activeServiceTypes: MEDICAL,
        otherPlans: [
          {
            payerName: 'AETNA',
            payerPi: '1021',
            entityIdentifier: 'Secondary Payer',
            insured: { firstName: 'DAVID', lastName: 'CHEN', memberId: 'W200002078', dateOfBirth: '1978-09-30' },
            serviceTypes: MEDICAL,
            dates: { coordinationOfBenefits: '2025-01-01', periodStart: '2025-01-01', planBegin: '2024-09-01' },
          },
        ],
      },
    },
  },
];

/** A payer's AAA of the eligibility sandbox, as the COB check answers it (42 is the one Stedi sends with HTTP 200). */
const cobAaa = (code: string): CobSandboxPatient['answer'] => ({ status: code === '42' ? 200 : 400, aaa: code });

/**
 * The COB answer of an eligibility sandbox patient the table above does not name: the same AAA for a
 * rejection; otherwise the plan only (MemberFoundNoCOB), or, when its 271 reports another payer (EB*R),
 * that payer with primacy undetermined. A dependent is found under the subscriber with the dependent fields.
 */
function fromEligibility(p: SandboxPatient): CobSandboxPatient {
  // Stedi's COB check does not cover Medicare: it answers AAA 75 (the service refuses such a check up front).
  const aaa = p.aaa?.code ?? (isMedicarePayer(p.payerId) ? '75' : undefined);
  const person = p.subscriber
    ? {
        firstName: p.subscriber.firstName,
        lastName: p.subscriber.lastName,
        dateOfBirth: p.subscriber.dob,
        dependent: { firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dob },
      }
    : { firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dob };
  const identity = { ...person, memberId: p.memberId, payerId: p.payerId };
  if (aaa) {
    const error = aaa === '42' || aaa === '80' ? ('PAYER_UNAVAILABLE' as const) : ('PAYER_REJECTED' as const);
    return { ...identity, expected: { error, aaa }, note: `The eligibility sandbox patient (${p.scenario}).`, answer: cobAaa(aaa) };
  }
  const planBegin = p.planBegin ? `${p.planBegin.slice(0, 4)}-${p.planBegin.slice(4, 6)}-${p.planBegin.slice(6, 8)}` : undefined;
  const insuredDob = usDateToIso(p.dob);
  const otherPlans: OtherPlan[] = (p.benefits ?? []).flatMap((row) =>
    row.info === 'R' && row.otherPayer
      ? [
          {
            payerName: row.otherPayer.name,
            payerPi: row.otherPayer.payerId,
            entityIdentifier: 'Payer' as const,
            insured: {
              firstName: p.firstName.toUpperCase(),
              lastName: p.lastName.toUpperCase(),
              memberId: row.otherPayer.memberId ?? p.memberId,
              dateOfBirth: insuredDob,
            },
            serviceTypes: MEDICAL,
            dates: planBegin ? { periodStart: planBegin } : ({} as Record<string, string>),
          },
        ]
      : [],
  );
  const scenario: Scenario = otherPlans.length
    ? {
        classification: 'CobInstanceExistsPrimacyUndetermined',
        flags: FLAGS.undetermined,
        activeServiceTypes: MEDICAL,
        otherPlans,
        ...(planBegin ? { planBegin } : {}),
      }
    : { classification: 'MemberFoundNoCob', flags: FLAGS.none, activeServiceTypes: MEDICAL, otherPlans: [], ...(planBegin ? { planBegin } : {}) };
  const cobCode: CobCode = otherPlans.length ? 'CobInstanceExistsPrimacyUndetermined' : 'MemberFoundNoCOB';
  return { ...identity, expected: { cobCode }, note: `The eligibility sandbox patient (${p.scenario}).`, answer: { status: 200, scenario } };
}

/** Faults the clearinghouse applies to every COB call of the patient (./clearinghouse.ts): no COB answer is ever reached. */
const EVERY_CALL_FAULTS = new Set<SandboxFault>(['http-429', 'http-500', 'slow', 'malformed-json']);

const key = (p: { lastName: string; firstName: string; memberId: string }) => `${p.lastName}|${p.firstName}|${p.memberId}`.toLowerCase();

/**
 * The named patients, then every eligibility sandbox patient they do not already cover. The HTTP fault
 * patients answer COB with their fault first (./clearinghouse.ts); their entries here serve the calls
 * a fault lets through (the flaky patient's even calls).
 */
export const COB_SANDBOX_PATIENTS: readonly CobSandboxPatient[] = (() => {
  const named = new Set(NAMED_PATIENTS.map(key));
  const derived = SANDBOX_PATIENTS.filter((p) => !p.fault || !EVERY_CALL_FAULTS.has(p.fault))
    .map(fromEligibility)
    .filter((p) => !named.has(key(p)) && !named.has(key({ ...p, ...(p.dependent ?? {}) })));
  return [...NAMED_PATIENTS, ...derived];
})();

const AAA: Readonly<Record<string, { description: string; followupAction: string; location: string; possibleResolutions: string }>> = {
  '72': {
    description: 'Invalid/Missing Subscriber/Insured ID',
    followupAction: 'Please Correct and Resubmit',
    location: 'Loop 2100C',
    possibleResolutions: "The member ID is not valid for this payer. Check it against the member's card.",
  },
  '75': {
    description: 'Subscriber/Insured Not Found',
    followupAction: 'Please Correct and Resubmit',
    location: 'Loop 2100C',
    possibleResolutions: 'The subscriber was not found. Check the name, date of birth and member ID against the payer records.',
  },
  '42': {
    description: 'Unable to Respond at Current Time',
    followupAction: 'Please Resubmit Original Transaction',
    location: 'Loop 2100A',
    possibleResolutions: 'The payer is temporarily unavailable. Retry the request later.',
  },
};

const toIso = (usDate: string): string => `${usDate.slice(6)}-${usDate.slice(0, 2)}-${usDate.slice(3, 5)}`;
const same = (a: string | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.toLowerCase();

/** Who the request asks about: a patient, and whether the check is for the patient's dependent. */
export interface CobMatch {
  patient: CobSandboxPatient;
  /** The check is for the dependent (named in the dependent fields, or as the patient under the family's member id). */
  forDependent: boolean;
}

export function findCobSandboxPatient(request: StediCobRequest): CobMatch | undefined {
  const s = request.subscriber;
  const d = request.dependent;
  const memberOf = (p: CobSandboxPatient) => (s?.memberId ?? '').trim() === p.memberId;
  const named = (who: { firstName: string; lastName: string }, as: { firstName?: string; lastName?: string } | undefined) =>
    same(as?.lastName, who.lastName) && same(as?.firstName, who.firstName);
  if (d && (d.firstName || d.lastName || d.dateOfBirth)) {
    // The dependent fields name the patient: the subscriber and the dependent must both match.
    const patient = COB_SANDBOX_PATIENTS.find(
      (p) => p.dependent && memberOf(p) && named(p, s) && named(p.dependent, d) && (!d.dateOfBirth || d.dateOfBirth === toIso(p.dependent.dateOfBirth)),
    );
    return patient && { patient, forDependent: true };
  }
  const subscriber = COB_SANDBOX_PATIENTS.find((p) => memberOf(p) && named(p, s));
  if (subscriber) return { patient: subscriber, forDependent: false };
  const dependent = COB_SANDBOX_PATIENTS.find((p) => p.dependent && memberOf(p) && named(p.dependent, s));
  return dependent && { patient: dependent, forDependent: true };
}

function meta(request: StediCobRequest) {
  return { applicationMode: 'sandbox', traceId: `sandbox-cob-${request.controlNumber ?? 'none'}` };
}

function providerEcho(request: StediCobRequest) {
  const p = request.provider ?? ({} as StediCobRequest['provider']);
  return p.organizationName ? { npi: p.npi, providerOrgName: p.organizationName } : { npi: p.npi, providerFirstName: p.firstName, providerName: p.lastName };
}

function errorAnswer(request: StediCobRequest, status: 200 | 400, code: string) {
  const error = { code, field: 'AAA', ...AAA[code]! };
  return {
    status,
    body: {
      errors: [error],
      meta: meta(request),
      payer: { payerIdentification: request.tradingPartnerServiceId },
      provider: providerEcho(request),
      subscriber: {
        firstName: request.subscriber?.firstName?.toUpperCase(),
        lastName: request.subscriber?.lastName?.toUpperCase(),
        ...(request.subscriber?.memberId ? { memberId: request.subscriber.memberId } : {}),
        aaaErrors: [error],
      },
    },
  };
}

function row(code: '1' | 'R', serviceTypes: ReadonlyArray<readonly [string, string]>, extra: Record<string, unknown>) {
  return {
    code,
    name: code === '1' ? 'Active Coverage' : 'Other or Additional Payor',
    serviceTypeCodes: serviceTypes.map(([c]) => c),
    serviceTypes: serviceTypes.map(([, n]) => n),
    ...extra,
  };
}

function coverageAnswer(request: StediCobRequest, patient: CobSandboxPatient, scenario: Scenario) {
  const patientDob = patient.dependent ? toIso(patient.dependent.dateOfBirth) : toIso(patient.dateOfBirth);
  const benefitsInformation = [
    // Without planDateInformation the plan start is the earliest benefitBegin; give the rows different ones.
    ...scenario.activeServiceTypes.map((st, index) =>
      row('1', [st], { benefitsDateInformation: { benefitBegin: scenario.planBegin ?? `2024-0${index + 1}-01` }, subscriber: { dateOfBirth: patientDob } }),
    ),
    ...scenario.otherPlans.flatMap((plan) =>
      plan.serviceTypes.map((st) =>
        row('R', [st], {
          benefitsDateInformation: plan.dates,
          benefitsRelatedEntities: [
            { entityIdentifier: plan.entityIdentifier, entityName: plan.payerName, entityIdentification: 'PI', entityIdentificationValue: plan.payerPi },
            {
              entityIdentifier: 'Insured or Subscriber',
              entityFirstname: plan.insured.firstName,
              entityLastname: plan.insured.lastName,
              entityIdentification: 'MI',
              entityIdentificationValue: plan.insured.memberId,
            },
          ],
          subscriber: { dateOfBirth: plan.insured.dateOfBirth },
        }),
      ),
    ),
  ];
  const body: Record<string, unknown> = {
    benefitsInformation,
    coordinationOfBenefits: { classification: scenario.classification, ...scenario.flags },
    errors: [],
    meta: meta(request),
    payer: { name: PAYER_NAME, payerIdentification: request.tradingPartnerServiceId },
    provider: providerEcho(request),
    subscriber: {
      firstName: patient.firstName.toUpperCase(),
      lastName: patient.lastName.toUpperCase(),
      memberId: patient.memberId,
      dateOfBirth: toIso(patient.dateOfBirth),
    },
  };
  if (scenario.planBegin) body.planDateInformation = { planBegin: scenario.planBegin };
  if (patient.dependent) {
    body.dependent = {
      firstName: patient.dependent.firstName.toUpperCase(),
      lastName: patient.dependent.lastName.toUpperCase(),
      dateOfBirth: toIso(patient.dependent.dateOfBirth),
      relationToSubscriber: 'Child',
      relationToSubscriberCode: '19',
    };
  }
  return { status: 200, body };
}

/** The subscriber asked about alone, without the dependent the check was recorded for: their own plan, no other coverage. */
const SUBSCRIBER_ALONE: Scenario = { classification: 'MemberFoundNoCob', flags: FLAGS.none, activeServiceTypes: MEDICAL, otherPlans: [] };

export function cobSandboxAnswer(request: StediCobRequest): { status: number; body: unknown } {
  const match = findCobSandboxPatient(request);
  if (!match) return errorAnswer(request, 400, '75');
  const { patient, forDependent } = match;
  const { answer } = patient;
  if (!('scenario' in answer)) return errorAnswer(request, answer.status, answer.aaa);
  if (patient.dependent && !forDependent) {
    const { dependent: _dependent, ...subscriber } = patient;
    return coverageAnswer(request, subscriber, { ...SUBSCRIBER_ALONE, ...(answer.scenario.planBegin ? { planBegin: answer.scenario.planBegin } : {}) });
  }
  return coverageAnswer(request, patient, answer.scenario);
}
