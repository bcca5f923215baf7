import type { FieldError } from '../errors/index.js';
import { NM1_NAME_SIZES, serviceTypeOfLine, x12Name } from '../x12/index.js';
import { type DateParts, dayNumber, latestToday, parseUsDate } from './formats.js';
import type { SchemaName } from './schemas.js';

/**
 * The rules a JSON Schema cannot state, checked after the compiled validator (docs/api.md#validation):
 * a value measured against another field, against today, or in the form the 270 carries it.
 * "Today" comes from an injected clock. A rule looks only at fields the schema found no fault with,
 * so each field still gets one message: the first rule it breaks.
 */

export interface RuleContext {
  now: Date;
  /** Fields the schema already reported: a rule neither reports them again nor compares against them. */
  reported: ReadonlySet<string>;
}

type Body = Record<string, unknown>;
type Rule = (body: Body, context: RuleContext) => FieldError | undefined;

/** The earliest date of coverage anyone can ask about. */
const EARLIEST_COVERAGE: DateParts = { year: 1900, month: 1, day: 1 };
/** How far ahead a date of coverage may be. */
const MAX_YEARS_AHEAD = 2;

const usDate = (parts: DateParts): string => `${String(parts.month).padStart(2, '0')}-${String(parts.day).padStart(2, '0')}-${parts.year}`;

/** The field's value when it is a usable string the schema accepted. */
function acceptedString(body: Body, field: string, context: RuleContext): string | undefined {
  const value = body[field];
  return typeof value === 'string' && !context.reported.has(field) ? value : undefined;
}

/** A date field, parsed, when the schema accepted it. */
function dateOf(body: Body, field: string, context: RuleContext): DateParts | undefined {
  const value = acceptedString(body, field, context);
  return value === undefined ? undefined : parseUsDate(value);
}

/**
 * dateOfCoverage in bounds: not before 01-01-1900, not more than two years after today, and not
 * before any date of birth the body gives (the patient's, and on COB the dependent's).
 */
function coverageInBounds(birthFields: readonly string[]): Rule {
  return (body, context) => {
    const coverage = dateOf(body, 'dateOfCoverage', context);
    if (!coverage) return undefined;
    const problem = (message: string): FieldError => ({ field: 'dateOfCoverage', message });
    if (dayNumber(coverage) < dayNumber(EARLIEST_COVERAGE)) return problem(`must not be before ${usDate(EARLIEST_COVERAGE)}`);
    const today = latestToday(context.now);
    const latest = { ...today, year: today.year + MAX_YEARS_AHEAD };
    if (dayNumber(coverage) > dayNumber(latest)) return problem(`must not be more than ${MAX_YEARS_AHEAD} years from today (at the latest ${usDate(latest)})`);
    for (const field of birthFields) {
      const birth = dateOf(body, field, context);
      if (birth && dayNumber(coverage) < dayNumber(birth)) return problem(`must not be before the date of birth (${field})`);
    }
    return undefined;
  };
}

/**
 * A name fits its NM1 element once cleaned and upper-cased (NM103 last name ≤ 60, NM104 first
 * name ≤ 35). Refused, not truncated: a shortened name is another name to the payer's search, and
 * the 270 guide gives no rule for cutting one (docs/security.md#strings).
 */
function fitsNm1(field: string, element: keyof typeof NM1_NAME_SIZES): Rule {
  const size = NM1_NAME_SIZES[element];
  const label = element === 'NM104' ? 'first name' : 'last name';
  return (body, context) => {
    const value = acceptedString(body, field, context);
    if (value === undefined || [...x12Name(value)].length <= size) return undefined;
    return { field, message: `must be at most ${size} characters once capitalised, the X12 270's limit for a ${label} (letters such as ß become two)` };
  };
}

/** An amount in dollars with at most two decimals (numbers up to a million print without an exponent). */
const CENTS = /^\d+(\.\d{1,2})?$/;
/** The most EQ of each kind a 270 carries. */
const MAX_CODES = 10;
const DEFAULT_SERVICE = '30';

type EstimateLines = { procedureCode?: unknown; serviceTypeCode?: unknown; amount?: unknown }[];
const estimateLines = (body: Body, context: RuleContext): EstimateLines | undefined => {
  const estimate = body.estimate as { lines?: unknown } | undefined;
  return !context.reported.has('estimate') && typeof estimate === 'object' && estimate !== null && Array.isArray(estimate.lines)
    ? (estimate.lines as EstimateLines)
    : undefined;
};

/** Each estimate amount has at most two decimals (cents). */
const amountsInCents: Rule = (body, context) => {
  const lines = estimateLines(body, context) ?? [];
  for (let i = 0; i < lines.length; i++) {
    const field = `estimate.lines[${i}].amount`;
    const amount = lines[i]?.amount;
    if (typeof amount === 'number' && !context.reported.has(field) && !CENTS.test(String(amount)))
      return { field, message: 'must have at most two decimals (cents)' };
  }
  return undefined;
};

/** A line's codes when they are text (the schema has reported any other). */
const lineCodes = (line: EstimateLines[number] | undefined): { procedureCode?: string; serviceTypeCode?: string } => ({
  ...(typeof line?.procedureCode === 'string' ? { procedureCode: line.procedureCode } : {}),
  ...(typeof line?.serviceTypeCode === 'string' ? { serviceTypeCode: line.serviceTypeCode } : {}),
});

/**
 * The estimate's codes join the 270's EQ lists (docs/eligibility.md#estimate): with the request's own
 * serviceTypeCodes (default 30) and procedureCodes, at most 10 distinct of each. A line's service type is
 * its own, else its procedure's by the crosswalk (docs/eligibility.md#procedure-crosswalk), else 30.
 */
const estimateCodesFit: Rule = (body, context) => {
  const lines = estimateLines(body, context);
  if (lines === undefined) return undefined;
  const listed = (field: string): unknown[] => (Array.isArray(body[field]) ? (body[field] as unknown[]) : []);
  const services = new Set([
    ...(Array.isArray(body.serviceTypeCodes) ? listed('serviceTypeCodes') : [DEFAULT_SERVICE]),
    ...lines.map((line) => serviceTypeOfLine(lineCodes(line)).code),
  ]);
  const procedures = new Set([...listed('procedureCodes'), ...lines.map((line) => line?.procedureCode).filter((code) => code !== undefined)]);
  if (services.size > MAX_CODES)
    return {
      field: 'estimate.lines',
      message: `must name at most ${MAX_CODES} service types together with serviceTypeCodes, counting those the procedure codes of lines without a serviceTypeCode map to (the 270 asks about at most ${MAX_CODES})`,
    };
  if (procedures.size > MAX_CODES)
    return {
      field: 'estimate.lines',
      message: `must name at most ${MAX_CODES} procedure codes together with procedureCodes (the 270 asks about at most ${MAX_CODES})`,
    };
  return undefined;
};

/** An appeal answers a denial (docs/letter.md#appeals): without the denial it cannot be written. */
const appealHasDenial: Rule = (body, context) =>
  body.letter_type === 'appeal' && body.denial_file_content === undefined && !context.reported.has('denial_file_content')
    ? { field: 'denial_file_content', message: 'is required when letter_type is appeal (the PDF of the denial letter or EOB)' }
    : undefined;

/** Stedi's insurance discovery takes names of at most 25 characters (docs/finding-coverage.md#upstream): refused here, never cut. */
const DISCOVERY_NAME_SIZE = 25;
const fitsDiscovery =
  (field: string): Rule =>
  (body, context) => {
    const value = acceptedString(body, field, context);
    if (value === undefined || [...x12Name(value)].length <= DISCOVERY_NAME_SIZE) return undefined;
    return { field, message: `must be at most ${DISCOVERY_NAME_SIZE} characters once capitalised, the insurance discovery's limit for a name` };
  };

/** At least one of two optional fields; the message names both. */
const oneOf =
  (first: string, second: string, why: string): Rule =>
  (body, context) =>
    body[first] !== undefined || body[second] !== undefined || context.reported.has(first) || context.reported.has(second)
      ? undefined
      : { field: first, message: `${first} or ${second} is required (${why})` };

/** A date of service in bounds, measured as a date of coverage is. */
const serviceInBounds: Rule = (body, context) => {
  const problem = coverageInBounds(['patientDOB'])({ ...body, dateOfCoverage: body.dateOfService }, context);
  return problem ? { ...problem, field: 'dateOfService', message: problem.message } : undefined;
};
/**
 * Rules for an object field of the body (the card's `check`): each runs on that object, sees only its
 * fields' reported problems, and names its field under the object's (`check.dateOfCoverage`).
 */
function within(field: string, rules: readonly Rule[]): Rule {
  return (body, context) => {
    const inner = body[field];
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner) || context.reported.has(field)) return undefined;
    const prefix = `${field}.`;
    const reported = new Set([...context.reported].filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length)));
    for (const rule of rules) {
      const problem = rule(inner as Body, { ...context, reported });
      if (problem) return { ...problem, field: `${prefix}${problem.field}` };
    }
    return undefined;
  };
}

const RULES: Record<SchemaName, readonly Rule[]> = {
  eligibility: [fitsNm1('patientFirstName', 'NM104'), fitsNm1('patientLastName', 'NM103'), coverageInBounds(['patientDOB']), amountsInCents, estimateCodesFit],
  cob: [
    fitsNm1('patientFirstName', 'NM104'),
    fitsNm1('patientLastName', 'NM103'),
    fitsNm1('dependentFirstName', 'NM104'),
    fitsNm1('dependentLastName', 'NM103'),
    coverageInBounds(['patientDOB', 'dependentDOB']),
  ],
  letter: [appealHasDenial],
  // The FHIR Bundle's own shape only: the eligibility body read from it is validated with the eligibility rules (lib/fhir/request.ts).
  fhir: [],
  discovery: [fitsDiscovery('patientFirstName'), fitsDiscovery('patientLastName'), serviceInBounds],
  mbi: [
    fitsNm1('patientFirstName', 'NM104'),
    fitsNm1('patientLastName', 'NM103'),
    coverageInBounds(['patientDOB']),
    oneOf('patientSSN', 'patientState', 'the Medicare number is looked up by SSN, or without one by the state the patient lives in'),
  ],
  // The card's `check` holds the eligibility fields the card does not give; the body made with the card is
  // validated again with the eligibility rules (lib/card/check.ts).
  card: [within('check', [coverageInBounds(['patientDOB']), amountsInCents, estimateCodesFit])],
};

/** The problems the rules of one schema find in a body (an object; other shapes have none). */
export function ruleProblems(name: SchemaName, body: unknown, context: RuleContext): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  return RULES[name].map((rule) => rule(body as Body, context)).filter((problem): problem is FieldError => problem !== undefined);
}
