/**
 * The parts of a real eligibility answer below its top level (docs/eligibility.md): per-service and
 * per-procedure entries with their limitations, the plan and the people, other payers, and the
 * estimate. Declared once: lib/eligibility's answer types are derived from these objects.
 */
import { benefitBlockSchema, codeNameSchema, isoDate, moneySchema, str } from './shared.js';
import { BALANCE_BILLING_NOTE, MISSING_FIGURES, PLAN_FIELDS, SERVICE_TYPE_SOURCES } from './vocabulary.js';

export const limitationSchema = {
  title: 'Limitation',
  type: 'object',
  description:
    'An EB01 F row (quantity, unit, amount, period, network, level; a filler amount such as 99999 is left out) or an HSD segment (quantity, unit, period, periodCount, remaining).',
  additionalProperties: false,
  properties: {
    quantity: { type: 'number', description: 'EB10, or HSD02 for a visit, day or quantity limit (HSD).' },
    unit: str('EB09 (or HSD01) quantity qualifier, by its X12 name (e.g. "Visits").'),
    amount: moneySchema,
    period: str('EB06 (or HSD05) time period, by its X12 name (e.g. "Calendar Year").'),
    periodCount: { type: 'number', description: 'HSD06: how many periods the HSD limit spans (HSD items only).' },
    remaining: { type: 'boolean', enum: [true], description: 'HSD05 is 29: the quantity is what remains of the limit (HSD items only).' },
    network: { type: 'string', enum: ['in', 'out', 'any'], description: 'EB12 of an EB01 F row; HSD items have none.' },
    level: { type: 'string', enum: ['individual', 'family'] },
    lastVisit: isoDate('HSD items only: the last visit the payer has on file (DTP*304), YYYY-MM-DD; open dates omitted.'),
  },
} as const;

const messages = {
  type: 'array',
  maxItems: 10,
  items: { type: 'string' },
  description: "The payer's free-text messages (MSG01), trimmed and deduplicated; at most 10.",
} as const;
const authorizationRequired = {
  type: 'boolean',
  description: 'Kept for compatibility: authorization.in when that is true or false, else omitted. Read authorization instead.',
} as const;
const authorizationAnswer = {
  oneOf: [{ type: 'boolean' }, { type: 'string', const: 'some' }],
  description: 'true when every row of this network that states EB11 says Y, false when all say N, "some" when they differ.',
} as const;
const authorization = {
  type: 'object',
  additionalProperties: false,
  description:
    'Whether the payer says prior authorization is needed (EB11), per network: in (EB12 Y, W, U or none) and out (N, W, U or none). A network is omitted when no row says; {} when none does.',
  properties: { in: authorizationAnswer, out: authorizationAnswer },
} as const;
const authorizationNotes = {
  type: 'array',
  maxItems: 3,
  items: { type: 'string' },
  description: 'The first three distinct messages of the rows that say authorization is required; omitted when none.',
} as const;

export const serviceBenefitSchema = {
  title: 'ServiceBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['serviceType', 'status', 'inNetwork', 'outNetwork', 'fromPlan', 'authorization', 'limitations', 'messages'],
  properties: {
    serviceType: codeNameSchema,
    status: { type: 'string', enum: ['Active', 'NotCovered', 'Inactive', 'Unknown'] },
    inNetwork: benefitBlockSchema,
    outNetwork: benefitBlockSchema,
    fromPlan: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: PLAN_FIELDS },
      description:
        'The fields of which at least one slot shows the plan-level figure (rows listing 30, 96 on a Medicare Part B row, or no service type) because no row for this service gave one; [] when none. NotCovered and Inactive entries never take plan figures, nor medical service types on a dental- or vision-only plan.',
    },
    fromService: {
      type: 'string',
      enum: ['BY', 'BZ'],
      description:
        'Only on the 98 (office visit) entry when the payer listed no row for 98: its figures come from the rows for BY (sick visit), else BZ (well visit).',
    },
    authorization,
    authorizationNotes,
    authorizationRequired,
    limitations: { type: 'array', items: limitationSchema },
    messages,
  },
} as const;

export const procedureBenefitSchema = {
  title: 'ProcedureBenefit',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'inNetwork', 'outNetwork', 'authorization', 'messages'],
  properties: {
    code: str('The requested CPT, HCPCS or CDT code.'),
    inNetwork: benefitBlockSchema,
    outNetwork: benefitBlockSchema,
    authorization,
    authorizationNotes,
    authorizationRequired,
    messages,
  },
} as const;

export const planSchema = {
  title: 'Plan',
  type: 'object',
  additionalProperties: false,
  description: 'What the payer says about the plan; keys it does not give are omitted ({} when nothing is known).',
  properties: {
    name: str("EB05 plan coverage description, else the REF*18 plan name (REF03) of the patient's loop."),
    scope: {
      type: 'string',
      enum: ['dental', 'vision'],
      description: 'Only for a dental-only or vision-only plan (no active row lists 30 and every one lists 35, or AL); a medical plan omits it.',
    },
    insuranceType: codeNameSchema,
    groupNumber: str(),
    groupName: str(),
    planNumber: str(),
    planBegin: isoDate('YYYY-MM-DD.'),
    planEnd: isoDate('YYYY-MM-DD (omitted for an open end).'),
    eligibilityBegin: isoDate('YYYY-MM-DD (DTP*356, else the begin of DTP*307).'),
    eligibilityEnd: isoDate('YYYY-MM-DD (DTP*357, else the end of a DTP*307 range).'),
  },
} as const;

export const subscriberSchema = {
  title: 'Subscriber',
  type: 'object',
  additionalProperties: false,
  description: 'The subscriber as the payer wrote it (2100C).',
  properties: {
    firstName: str(),
    lastName: str(),
    memberId: str(),
    dateOfBirth: isoDate('YYYY-MM-DD.'),
    dateOfDeath: isoDate('YYYY-MM-DD, when the payer reports one (DTP*442).'),
  },
} as const;

export const dependentSchema = {
  title: 'Dependent',
  type: 'object',
  additionalProperties: false,
  description: 'The dependent as the payer wrote it (2100D); present only when the 271 has a dependent loop.',
  properties: {
    firstName: str(),
    lastName: str(),
    dateOfBirth: isoDate('YYYY-MM-DD.'),
    dateOfDeath: isoDate('YYYY-MM-DD, when the payer reports one (DTP*442).'),
    relationship: { type: 'string', enum: ['spouse', 'child', 'other adult', 'other'] },
  },
} as const;

export const otherPayerSchema = {
  title: 'OtherPayer',
  type: 'object',
  additionalProperties: false,
  properties: {
    name: str(),
    payerId: str(),
    insuranceType: codeNameSchema,
    serviceTypes: { type: 'array', items: { type: 'string' } },
    coverageBegin: isoDate('YYYY-MM-DD.'),
    coverageEnd: isoDate('YYYY-MM-DD.'),
    memberId: str(),
    activeOnDate: {
      type: 'boolean',
      description: "false when this coverage ended before, or begins after, the request's dateOfCoverage; notices name only active payers.",
    },
  },
  required: ['serviceTypes', 'activeOnDate'],
} as const;

export const estimateLineSchema = {
  title: 'EstimateLine',
  type: 'object',
  additionalProperties: false,
  required: ['serviceTypeCode', 'serviceTypeSource', 'amount', 'basis', 'copay', 'deductible', 'coinsurance', 'patientOwes', 'planPays'],
  description:
    'One line: copay, deductible (a per-visit, per-episode or per-admission deductible first, then the yearly one) and coinsurance are the parts charged on this line; patientOwes is their sum after the out-of-pocket cap, planPays the rest of amount. patientOwes and planPays are "N/A" when a figure they need is missing.',
  properties: {
    procedureCode: str("The line's procedure code, when it gave one."),
    serviceTypeCode: str(
      "The line's service type: its own, else its procedure code's by the documented crosswalk (docs/eligibility.md#procedure-crosswalk), else 30.",
    ),
    serviceTypeSource: {
      type: 'string',
      enum: SERVICE_TYPE_SOURCES,
      description: 'request: the line named the service type (or named neither it nor a procedure: 30); crosswalk: it came from the procedure code.',
    },
    amount: moneySchema,
    basis: {
      type: 'string',
      enum: ['procedure', 'service', 'plan'],
      description:
        'Where the figures came from: the procedures entry (when it has any figure), else the benefits entry of the service type, else the plan-wide blocks.',
    },
    copay: moneySchema,
    deductible: moneySchema,
    coinsurance: moneySchema,
    patientOwes: moneySchema,
    planPays: moneySchema,
    missing: {
      type: 'array',
      items: { type: 'string', enum: MISSING_FIGURES },
      description:
        'What the payer did not say. deductibleRemaining or coinsurance make patientOwes and planPays "N/A" (except when the reply has no deductible at all: then $0 was used and the figures stay); coinsuranceAfterCopay: a copay was charged and the payer does not say whether coinsurance follows; stopLossRemaining: no out-of-pocket cap was applied; primaryPayer: another plan may pay first (Medicare Advantage, or a Medicare secondary payer type). Empty or absent when the line is complete; a met out-of-pocket maximum needs nothing else.',
    },
  },
} as const;

export const estimateSchema = {
  title: 'Estimate',
  type: 'object',
  additionalProperties: false,
  required: ['network', 'lines', 'patientOwes', 'planPays', 'complete'],
  description:
    "What the patient may owe, only when the request sent estimate: a guide computed from the payer's eligibility reply, not a promise; the payer adjudicates the claim and decides what is owed. Send each line's allowed amount (the practice's contracted rate with this payer), not its charge. Each line applies a per-visit deductible, then copay, deductible, coinsurance and the out-of-pocket maximum, in that order, against running balances, exactly to the cent. Out of network, the provider may bill the difference between the charge and the allowed amount (balance billing), which the estimate does not include.",
  properties: {
    network: { type: 'string', enum: ['in', 'out'] },
    lines: { type: 'array', items: estimateLineSchema },
    patientOwes: moneySchema,
    planPays: moneySchema,
    complete: { type: 'boolean', description: "false when any line's missing names anything." },
    balanceBillingPossible: {
      type: 'boolean',
      enum: [true],
      description: 'Out of network only: the provider may bill the patient the difference between the charge and the allowed amount.',
    },
    balanceBillingNote: { ...str('Out of network only: the balance-billing sentence for the patient.'), enum: [BALANCE_BILLING_NOTE] },
  },
} as const;
