/**
 * Checks that an eligibility answer stays inside what docs/eligibility.md promises: every key of
 * the right kind, figures as money / percent / "N/A", codes and statuses from their lists, dates
 * ISO, sizes within their caps. Returns the first problem found, or undefined.
 */
const MONEY = /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/;
const PERCENT = /^-?\d+(\.\d{1,2})?%$/;
const ISO = /^\d{4}-\d{2}-\d{2}$/;
const NA = 'N/A';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Json, allowed: string[]): string | undefined => Object.keys(v).find((k) => !allowed.includes(k));

function level(v: unknown, path: string): string | undefined {
  if (!isObject(v)) return `${path} not an object`;
  const extra = onlyKeys(v, ['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining']);
  if (extra) return `${path}.${extra} unexpected`;
  const money = (x: unknown) => x === NA || (typeof x === 'string' && MONEY.test(x));
  if (!money(v.copay) || !money(v.stopLoss) || !money(v.stopLossRemaining)) return `${path} money figure`;
  if (!(v.coinsurance === NA || (typeof v.coinsurance === 'string' && PERCENT.test(v.coinsurance)))) return `${path}.coinsurance`;
  const d = v.deductible;
  if (!isObject(d) || onlyKeys(d, ['total', 'remaining']) || !money(d.total) || !money(d.remaining)) return `${path}.deductible`;
  return undefined;
}

function blocks(v: Json, path: string): string | undefined {
  for (const network of ['inNetwork', 'outNetwork']) {
    const block = v[network];
    if (!isObject(block) || onlyKeys(block, ['individual', 'family'])) return `${path}.${network}`;
    const problem = level(block.individual, `${path}.${network}.individual`) ?? level(block.family, `${path}.${network}.family`);
    if (problem) return problem;
  }
  return undefined;
}

const codeName = (v: unknown) => isObject(v) && typeof v.code === 'string' && typeof v.name === 'string' && !onlyKeys(v, ['code', 'name']);
const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const optionalString = (v: Json, key: string) => v[key] === undefined || (typeof v[key] === 'string' && v[key] !== '');
const optionalIso = (v: Json, key: string) => v[key] === undefined || (typeof v[key] === 'string' && ISO.test(v[key] as string));

/** `asked`: the request's procedure codes, to check `procedures` against (absent: only its shape is checked). */
export function answerProblem(answer: unknown, asked?: { procedureCodes?: readonly string[] }): string | undefined {
  if (!isObject(answer)) return 'not an object';
  const problem = blocks(answer, '');
  if (problem) return problem;
  if (!['Active', 'Inactive', 'Unknown'].includes(answer.coverageStatus as string)) return 'coverageStatus';
  if (!optionalString(answer, 'payerName')) return 'payerName';
  const plan = answer.plan;
  if (!isObject(plan) || onlyKeys(plan, ['name', 'insuranceType', 'groupNumber', 'groupName', 'planNumber', 'planBegin', 'planEnd', 'eligibilityBegin'])) return 'plan keys';
  if (!['name', 'groupNumber', 'groupName', 'planNumber'].every((k) => optionalString(plan, k))) return 'plan strings';
  if (!['planBegin', 'planEnd', 'eligibilityBegin'].every((k) => optionalIso(plan, k))) return 'plan dates';
  if (plan.insuranceType !== undefined && !codeName(plan.insuranceType)) return 'plan.insuranceType';
  const subscriber = answer.subscriber;
  if (!isObject(subscriber) || onlyKeys(subscriber, ['firstName', 'lastName', 'memberId', 'dateOfBirth']) || !optionalIso(subscriber, 'dateOfBirth')) return 'subscriber';
  if (answer.dependent !== undefined) {
    const d = answer.dependent;
    if (!isObject(d) || onlyKeys(d, ['firstName', 'lastName', 'dateOfBirth', 'relationship']) || !optionalIso(d, 'dateOfBirth')) return 'dependent';
    if (d.relationship !== undefined && !['spouse', 'child', 'other adult', 'other'].includes(d.relationship as string)) return 'dependent.relationship';
  }
  const benefits = answer.benefits;
  if (!Array.isArray(benefits) || benefits.length > 100) return 'benefits';
  for (const [i, b] of benefits.entries()) {
    if (!isObject(b) || onlyKeys(b, ['serviceType', 'status', 'inNetwork', 'outNetwork', 'authorizationRequired', 'limitations', 'messages'])) return `benefits[${i}] keys`;
    if (!codeName(b.serviceType)) return `benefits[${i}].serviceType`;
    if (!['Active', 'NotCovered', 'Inactive', 'Unknown'].includes(b.status as string)) return `benefits[${i}].status`;
    if (b.authorizationRequired !== undefined && typeof b.authorizationRequired !== 'boolean') return `benefits[${i}].authorizationRequired`;
    if (!strings(b.messages) || (b.messages as string[]).length > 10) return `benefits[${i}].messages`;
    if (!Array.isArray(b.limitations)) return `benefits[${i}].limitations`;
    for (const l of b.limitations as unknown[]) {
      if (!isObject(l) || onlyKeys(l, ['quantity', 'unit', 'amount', 'period', 'network', 'level'])) return `benefits[${i}] limitation keys`;
      if (l.quantity !== undefined && !Number.isFinite(l.quantity)) return `benefits[${i}] limitation quantity`;
      if (l.amount !== undefined && !MONEY.test(l.amount as string)) return `benefits[${i}] limitation amount`;
      if (!['in', 'out', 'any'].includes(l.network as string)) return `benefits[${i}] limitation network`;
      if (l.level !== undefined && !['individual', 'family'].includes(l.level as string)) return `benefits[${i}] limitation level`;
    }
    const figures = blocks(b, `benefits[${i}]`);
    if (figures) return figures;
  }
  if (asked !== undefined) {
    const codes = asked.procedureCodes;
    if (codes === undefined ? answer.procedures !== undefined : !Array.isArray(answer.procedures) || answer.procedures.length !== codes.length) return 'procedures';
  } else if (answer.procedures !== undefined && !Array.isArray(answer.procedures)) return 'procedures';
  for (const [i, p] of ((answer.procedures as unknown[]) ?? []).entries()) {
    if (!isObject(p) || onlyKeys(p, ['code', 'inNetwork', 'outNetwork', 'authorizationRequired', 'messages'])) return `procedures[${i}]`;
    if (asked?.procedureCodes ? p.code !== asked.procedureCodes[i] : typeof p.code !== 'string') return `procedures[${i}].code`;
    if (!strings(p.messages)) return `procedures[${i}].messages`;
    const figures = blocks(p, `procedures[${i}]`);
    if (figures) return figures;
  }
  if (!Array.isArray(answer.otherPayers)) return 'otherPayers';
  for (const o of answer.otherPayers as unknown[]) {
    if (!isObject(o) || onlyKeys(o, ['name', 'payerId', 'insuranceType', 'serviceTypes', 'coverageBegin', 'coverageEnd', 'memberId'])) return 'otherPayers keys';
    if (!strings(o.serviceTypes) || !optionalIso(o, 'coverageBegin') || !optionalIso(o, 'coverageEnd')) return 'otherPayers values';
    if (o.insuranceType !== undefined && !codeName(o.insuranceType)) return 'otherPayers.insuranceType';
  }
  if (!Array.isArray(answer.notices)) return 'notices';
  for (const n of answer.notices as unknown[]) {
    if (!isObject(n) || onlyKeys(n, ['code', 'message']) || typeof n.message !== 'string') return 'notice';
    if (!['OTHER_PAYER', 'FAMILY_LEVEL_ONLY', 'SERVICE_NOT_RETURNED'].includes(n.code as string)) return 'notice code';
  }
  return undefined;
}
