/**
 * What the patient may owe (docs/eligibility.md#estimate): each line takes its figures from its
 * procedure's entry, its service's entry or the plan, then copay, deductible, coinsurance and the
 * out-of-pocket cap apply in that order against running balances. Arithmetic is on whole cents
 * (bigint), never floats, from the numeric figures (figures.ts); the answer's money is formatted
 * once, at the end. A figure the payer did not give is named, never guessed. A guide only: the payer
 * adjudicates the claim.
 */
import type { EstimateRequest } from '../validation/schemas.js';
import {
  levelHasFigure,
  NOT_KNOWN,
  type Block,
  type Blocks,
  type Figures,
  type LevelFigures,
  type Money,
  type ProcedureFigures,
  type ServiceFigures,
} from './figures.js';
import { formatMoney, parseDecimal, roundUnits } from './format.js';
import { NOT_AVAILABLE, type Estimate, type EstimateLine, type ServiceStatus } from './types.js';

type EstimateBasis = EstimateLine['basis'];
/** A figure a line needed and the payer did not give. */
type MissingFigure = NonNullable<EstimateLine['missing']>[number];

/** Where the figures come from: the plan-wide blocks, and a real answer's entries (mock answers have none). */
export type EstimateSources = Blocks<Figures> & { benefits?: readonly ServiceFigures[]; procedures?: readonly ProcedureFigures[] };

const DEFAULT_SERVICE_TYPE = '30';
const DEFAULT_NETWORK = 'in';

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const atLeastZero = (a: bigint): bigint => (a < 0n ? 0n : a);

/** cents × basis points / 10,000, rounded half away from zero to the cent (amounts are never negative). */
const share = (cents: bigint, basisPoints: bigint): bigint => (cents * basisPoints * 2n + 10_000n) / 20_000n;

/** A figure to charge or cap with: a payer's negative amount counts as none, like a figure not known. */
const usable = (figure: Money): bigint | undefined => (figure === NOT_KNOWN || figure < 0n ? undefined : figure);

/** Mock levels have no out-of-pocket remaining. */
const stopLossRemaining = (level: Figures): Money => ('stopLossRemaining' in level ? (level as LevelFigures).stopLossRemaining : NOT_KNOWN);

/** The individual figure capped by the family one when both are known; the individual's absence is the figure's absence. */
function capped(individual: Money, family: Money): bigint | undefined {
  const own = usable(individual);
  const all = usable(family);
  return own === undefined ? undefined : all === undefined ? own : min(own, all);
}

/** Whether a procedures entry has any figure (payers often ignore procedure inquiries). */
const hasFigure = (entry: ProcedureFigures): boolean =>
  [entry.inNetwork, entry.outNetwork].some((block) => levelHasFigure(block.individual) || levelHasFigure(block.family));

interface LineFigures {
  basis: EstimateBasis;
  block: Block<Figures>;
  status: ServiceStatus | undefined;
}

/** A line's figures: its procedure's entry when it has any figure, else its service's entry, else the plan. */
function figuresFor(sources: EstimateSources, network: 'in' | 'out', procedureCode: string | undefined, serviceTypeCode: string): LineFigures {
  const key = network === 'in' ? 'inNetwork' : 'outNetwork';
  const service = sources.benefits?.find((entry) => entry.serviceType.code === serviceTypeCode);
  const procedure = procedureCode === undefined ? undefined : sources.procedures?.find((entry) => entry.code === procedureCode);
  if (procedure && hasFigure(procedure)) return { basis: 'procedure', block: procedure[key], status: service?.status };
  if (service) return { basis: 'service', block: service[key], status: service.status };
  return { basis: 'plan', block: sources[key], status: undefined };
}

/** What earlier lines used up: deductible applied and everything paid toward the out-of-pocket maximum. */
interface Balances {
  deductibleUsed: bigint;
  paid: bigint;
}

interface Charged {
  copay: bigint;
  deductible: bigint | undefined;
  coinsurance: bigint | undefined;
  missing: MissingFigure[];
}

/** Steps 2 and 3: a copay, else the deductible and the coinsurance of the rest. */
function charge(amount: bigint, own: Figures, family: Figures, balances: Balances): Charged {
  const copay = usable(own.copay);
  if (copay !== undefined) return { copay: min(copay, amount), deductible: 0n, coinsurance: 0n, missing: [] };
  const missing: MissingFigure[] = [];
  const remaining = capped(own.deductible.remaining, family.deductible.remaining);
  const deductible = remaining === undefined ? undefined : min(amount, atLeastZero(remaining - balances.deductibleUsed));
  if (deductible === undefined) missing.push('deductibleRemaining');
  const rest = deductible === undefined ? undefined : amount - deductible;
  const rate = own.coinsurance;
  if (rate === undefined && rest !== 0n) missing.push('coinsurance');
  const coinsurance = rest === 0n ? 0n : rest === undefined || rate === undefined ? undefined : share(rest, rate);
  return { copay: 0n, deductible, coinsurance, missing };
}

/** Step 4: the out-of-pocket cap takes back coinsurance first, then deductible, then copay. */
function capParts(parts: { copay: bigint; deductible: bigint; coinsurance: bigint }, room: bigint) {
  let excess = atLeastZero(parts.copay + parts.deductible + parts.coinsurance - room);
  const take = (part: bigint): bigint => {
    const taken = min(part, excess);
    excess -= taken;
    return part - taken;
  };
  const coinsurance = take(parts.coinsurance);
  const deductible = take(parts.deductible);
  const copay = take(parts.copay);
  return { copay, deductible, coinsurance };
}

function lineOf(
  request: EstimateRequest['lines'][number],
  sources: EstimateSources,
  network: 'in' | 'out',
  balances: Balances,
): { line: EstimateLine; owes: bigint | undefined; pays: bigint | undefined } {
  const serviceTypeCode = request.serviceTypeCode ?? DEFAULT_SERVICE_TYPE;
  const amount = roundUnits(parseDecimal(String(request.amount)) ?? { units: 0n, scale: 0 }, 2);
  const { basis, block, status } = figuresFor(sources, network, request.procedureCode, serviceTypeCode);
  const finish = (
    parts: { copay: bigint; deductible: bigint | undefined; coinsurance: bigint | undefined },
    owes: bigint | undefined,
    missing: MissingFigure[],
  ) => {
    const line: EstimateLine = {
      ...(request.procedureCode === undefined ? {} : { procedureCode: request.procedureCode }),
      serviceTypeCode,
      amount: formatMoney(amount),
      basis,
      copay: formatMoney(parts.copay),
      deductible: parts.deductible === undefined ? NOT_AVAILABLE : formatMoney(parts.deductible),
      coinsurance: parts.coinsurance === undefined ? NOT_AVAILABLE : formatMoney(parts.coinsurance),
      patientOwes: owes === undefined ? NOT_AVAILABLE : formatMoney(owes),
      planPays: owes === undefined ? NOT_AVAILABLE : formatMoney(amount - owes),
      ...(missing.length > 0 ? { missing } : {}),
    };
    return { line, owes, pays: owes === undefined ? undefined : amount - owes };
  };

  // Step 1: a service the plan does not cover is the patient's whole amount, outside the out-of-pocket maximum.
  if (status === 'NotCovered') return finish({ copay: 0n, deductible: 0n, coinsurance: 0n }, amount, []);
  const charged = charge(amount, block.individual, block.family, balances);
  const missing = charged.missing;
  if (charged.deductible === undefined || charged.coinsurance === undefined) return finish(charged, undefined, missing);
  const cap = capped(stopLossRemaining(block.individual), stopLossRemaining(block.family));
  const whole = { copay: charged.copay, deductible: charged.deductible, coinsurance: charged.coinsurance };
  const parts = cap === undefined ? whole : capParts(whole, atLeastZero(cap - balances.paid));
  if (cap === undefined) missing.push('stopLossRemaining');
  const owes = parts.copay + parts.deductible + parts.coinsurance;
  balances.deductibleUsed += parts.deductible;
  balances.paid += owes;
  return finish(parts, owes, missing);
}

export function estimateOf(request: EstimateRequest, sources: EstimateSources): Estimate {
  const network = request.network ?? DEFAULT_NETWORK;
  const balances: Balances = { deductibleUsed: 0n, paid: 0n };
  const lines: EstimateLine[] = [];
  let owes: bigint | undefined = 0n;
  let pays: bigint | undefined = 0n;
  for (const requested of request.lines) {
    const result = lineOf(requested, sources, network, balances);
    lines.push(result.line);
    owes = owes === undefined || result.owes === undefined ? undefined : owes + result.owes;
    pays = pays === undefined || result.pays === undefined ? undefined : pays + result.pays;
  }
  return {
    network,
    lines,
    patientOwes: owes === undefined ? NOT_AVAILABLE : formatMoney(owes),
    planPays: pays === undefined ? NOT_AVAILABLE : formatMoney(pays),
    complete: lines.every((line) => line.missing === undefined),
  };
}

/** The 270's service types and procedures once the estimate's lines join the request's own (docs/eligibility.md#estimate). */
export function codesAsked(request: { serviceTypeCodes?: string[]; procedureCodes?: string[]; estimate?: EstimateRequest }): {
  serviceTypeCodes?: string[];
  procedureCodes?: string[];
} {
  const out: { serviceTypeCodes?: string[]; procedureCodes?: string[] } = {};
  const lines = request.estimate?.lines ?? [];
  const lineServices = lines.flatMap((line) => (line.serviceTypeCode === undefined ? [] : [line.serviceTypeCode]));
  if (request.serviceTypeCodes || lineServices.length > 0) {
    out.serviceTypeCodes = [...new Set([...(request.serviceTypeCodes ?? [DEFAULT_SERVICE_TYPE]), ...lineServices])];
  }
  const lineProcedures = lines.flatMap((line) => (line.procedureCode === undefined ? [] : [line.procedureCode]));
  if (request.procedureCodes || lineProcedures.length > 0) out.procedureCodes = [...new Set([...(request.procedureCodes ?? []), ...lineProcedures])];
  return out;
}
