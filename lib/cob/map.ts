/**
 * Stedi COB answer → the service's COB response (docs/api.md#coordination-of-benefits). Pure: no I/O, no logging.
 * `classifyCobAnswer` is its one entry, which the COB check (./check.ts) calls with the reply's AAA errors, read once.
 */
import { type AaaRejection, fail, ok, type Result, serviceError } from '../errors/index.js';
import { isJsonObject, type JsonObject } from '../upstream/index.js';
import { errorForRejections, serviceTypeName } from '../x12/index.js';
import { type AdditionalPlanBenefit, COB_CODES, type CobCode, type CobResult, type PayerPrimacy, type ServiceTypeCode } from './types.js';

/** A usable string value; blank and non-string values count as missing. */
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);

/** Stedi spells one classification differently from the five COB codes (docs/api.md#coordination-of-benefits). */
const CLASSIFICATION_ALIASES: Readonly<Record<string, CobCode>> = { MemberFoundNoCob: 'MemberFoundNoCOB' };

const PRIMACY: Readonly<Record<string, PayerPrimacy>> = {
  'Primary Payer': 'PrimaryPayer',
  'Secondary Payer': 'SecondaryPayer',
  'Tertiary Payer': 'TertiaryPayer',
  Payer: 'Undetermined',
};
const SUBSCRIBER_ENTITY = 'Insured or Subscriber';

const ACTIVE_COVERAGE = '1';
const OTHER_PAYER = 'R';

const upstreamError = (message: string) => fail<CobResult>(serviceError('UPSTREAM_ERROR', { message }));

function cobCode(answer: JsonObject): CobCode | undefined {
  const classification = isJsonObject(answer.coordinationOfBenefits) ? text(answer.coordinationOfBenefits.classification) : undefined;
  if (!classification) return undefined;
  if (classification in CLASSIFICATION_ALIASES) return CLASSIFICATION_ALIASES[classification];
  return (COB_CODES as readonly string[]).includes(classification) ? (classification as CobCode) : undefined;
}

/**
 * YYYYMMDD or YYYY-MM-DD → YYYY-MM-DD; a range ("A-B") gives its first date. Anything else, or a
 * date that is not on the calendar, is treated as missing rather than passed on.
 */
function isoDate(value: unknown): string | undefined {
  const raw = text(value)?.trim();
  if (!raw) return undefined;
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:$|\s*-\s*\d{4}-?\d{2}-?\d{2}$)/.exec(raw);
  if (!match) return undefined;
  const [, y, m, d] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) {
    return undefined;
  }
  return `${y}-${m}-${d}`;
}

const dateField = (row: JsonObject, field: string): string | undefined =>
  isJsonObject(row.benefitsDateInformation) ? isoDate(row.benefitsDateInformation[field]) : undefined;

/** ISO dates compare correctly as strings, so the earliest is the smallest. */
const earliest = (dates: (string | undefined)[]): string | undefined => dates.filter((d): d is string => d !== undefined).sort()[0];

const firstOf = <T>(values: (T | undefined)[]): T | undefined => values.find((v) => v !== undefined);

/** A row's {code, name} pairs: serviceTypeCodes and serviceTypes are parallel lists. */
function rowServiceTypes(row: JsonObject): ServiceTypeCode[] {
  const codes = Array.isArray(row.serviceTypeCodes) ? row.serviceTypeCodes : [];
  const names = Array.isArray(row.serviceTypes) ? row.serviceTypes : [];
  const pairs: ServiceTypeCode[] = [];
  codes.forEach((value, index) => {
    const code = text(value)?.trim();
    if (!code) return;
    // Stedi names every code it sends; the X12 name covers a missing one. A code with no name at all is dropped.
    const name = text(names[index]) ?? serviceTypeName(code);
    if (name) pairs.push({ code, name });
  });
  return pairs;
}

/** Distinct {code, name} pairs across rows in first-seen order, narrowed to the caller's codes when asked. */
function serviceTypes(rows: JsonObject[], keep: ReadonlySet<string> | undefined): ServiceTypeCode[] {
  const seen = new Set<string>();
  const result: ServiceTypeCode[] = [];
  for (const pair of rows.flatMap(rowServiceTypes)) {
    const key = JSON.stringify([pair.code, pair.name]);
    if (seen.has(key) || (keep && !keep.has(pair.code))) continue;
    seen.add(key);
    result.push(pair);
  }
  return result;
}

/** Stedi is asked for 30 only; when the caller named other codes, plans list only the named ones. */
function codeFilter(requestedCodes: string[] | undefined): ReadonlySet<string> | undefined {
  const named = (requestedCodes ?? []).map((c) => c.trim()).filter((c) => c !== '');
  return named.some((code) => code !== '30') ? new Set(named) : undefined;
}

interface OtherPlanEntities {
  payer?: JsonObject;
  insured?: JsonObject;
}

function entities(row: JsonObject): OtherPlanEntities {
  const related = objects(row.benefitsRelatedEntities);
  const payer = related.find((e) => typeof e.entityIdentifier === 'string' && e.entityIdentifier in PRIMACY);
  const insured = related.find((e) => e.entityIdentifier === SUBSCRIBER_ENTITY);
  return { ...(payer ? { payer } : {}), ...(insured ? { insured } : {}) };
}

/** The other plan's member id: the subscriber entity's MI value (a payer's PI value is never used). */
const memberIdOf = (insured: JsonObject | undefined): string | undefined =>
  insured && insured.entityIdentification === 'MI' ? text(insured.entityIdentificationValue) : undefined;

/** Adds `key` only when a value exists: the response never carries null, "" or invented values. */
function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

function additionalPlan(rows: JsonObject[], keep: ReadonlySet<string> | undefined): AdditionalPlanBenefit {
  const found = rows.map(entities);
  const payer = firstOf(found.map((e) => e.payer));
  const plan: AdditionalPlanBenefit = { serviceTypeCodes: serviceTypes(rows, keep), benefitDate: {}, subscriber: {} };
  put(plan, 'payerName', payer ? text(payer.entityName) : undefined);
  put(plan, 'payerPrimacy', payer ? PRIMACY[payer.entityIdentifier as string] : undefined);

  const date = (field: string) => firstOf(rows.map((row) => dateField(row, field)));
  put(plan.benefitDate, 'overlapBeginDate', date('periodStart'));
  put(plan.benefitDate, 'overlapEndDate', date('periodEnd'));
  put(plan.benefitDate, 'planStartDate', date('planBegin') ?? earliest(rows.map((row) => dateField(row, 'benefitBegin'))));
  put(plan.benefitDate, 'planEndDate', date('benefitEnd'));
  put(plan.benefitDate, 'coordinationOfBenefits', date('coordinationOfBenefits'));

  put(plan.subscriber, 'firstName', firstOf(found.map((e) => (e.insured ? text(e.insured.entityFirstname) : undefined))));
  put(plan.subscriber, 'lastName', firstOf(found.map((e) => (e.insured ? text(e.insured.entityLastname) : undefined))));
  put(plan.subscriber, 'dateOfBirth', firstOf(rows.map((row) => (isJsonObject(row.subscriber) ? isoDate(row.subscriber.dateOfBirth) : undefined))));
  put(plan.subscriber, 'memberId', firstOf(found.map((e) => memberIdOf(e.insured))));
  return plan;
}

/** EB01 R rows grouped per other plan: the other payer's name and the other plan's member id. */
function additionalPlans(rows: JsonObject[], keep: ReadonlySet<string> | undefined): AdditionalPlanBenefit[] {
  const groups = new Map<string, JsonObject[]>();
  for (const row of rows) {
    const { payer, insured } = entities(row);
    const key = JSON.stringify([payer ? (text(payer.entityName) ?? null) : null, memberIdOf(insured) ?? null]);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()].map((group) => additionalPlan(group, keep));
}

/** Maps a successful Stedi COB answer (no AAA errors). Unknown classification or a non-object → 502. */
function mapCobResponse(answer: unknown, requestedCodes?: string[]): Result<CobResult> {
  if (!isJsonObject(answer)) return upstreamError('The COB answer is not a JSON object');
  const code = cobCode(answer);
  if (!code) return upstreamError('The COB answer has no recognised classification');

  const keep = codeFilter(requestedCodes);
  const rows = objects(answer.benefitsInformation);
  const active = rows.filter((row) => row.code === ACTIVE_COVERAGE);
  const others = rows.filter((row) => row.code === OTHER_PAYER);

  const requested: CobResult['requestedPlanBenefits'][number] = { serviceTypeCodes: serviceTypes(active, keep), benefitDate: {} };
  put(requested, 'payerName', isJsonObject(answer.payer) ? text(answer.payer.name) : undefined);
  const planBegin = isJsonObject(answer.planDateInformation) ? isoDate(answer.planDateInformation.planBegin) : undefined;
  put(requested.benefitDate, 'planStartDate', planBegin ?? earliest(active.map((row) => dateField(row, 'benefitBegin'))));

  return ok({ cobCode: code, requestedPlanBenefits: [requested], additionalPlanBenefitInfo: additionalPlans(others, keep) });
}

/**
 * The one entry for a Stedi COB reply: `status` is the HTTP status (200 or 400), `answer` the parsed
 * JSON and `rejections` its payer AAA errors (`cobErrors(answer)`, read once by the caller, which also
 * decided the retry with them). Payer AAA errors win over everything else (docs/api.md#errors); a 400
 * without any is Stedi refusing our request, which the caller cannot fix by resending, so it is
 * reported as 502.
 */
export function classifyCobAnswer(status: number, answer: unknown, rejections: AaaRejection[], requestedCodes?: string[]): Result<CobResult> {
  if (status !== 200 && status !== 400) return upstreamError('Unexpected status from the COB check');
  if (rejections.length > 0) return fail(errorForRejections(rejections));
  if (status === 400) return upstreamError('The clearinghouse did not accept the COB request');
  return mapCobResponse(answer, requestedCodes);
}
