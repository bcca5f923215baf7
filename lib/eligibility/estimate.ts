/**
 * What the patient may owe (docs/eligibility.md#estimate and #estimate-revision-2): each line takes its
 * service type (its own, else the procedure crosswalk's), its figures from its procedure's entry, its
 * service's entry or the plan, and the facts of the reply that apply to it (not covered out of network,
 * deductible waived, family-only accumulators, no deductible, Original Medicare, another payer first);
 * estimate-line.ts does the arithmetic on whole cents. The answer's money is formatted once, at the end.
 * A guide only: the payer adjudicates the claim.
 */
import { serviceTypeOfLine } from '../x12/index.js';
import { BALANCE_BILLING_NOTE, type EstimateRequest, MISSING_FIGURES } from '../validation/index.js';
import { type Balances, chargeLine, type LineRules, type MissingFigure } from './estimate-line.js';
import { type Block, type Blocks, type EstimateFacts, type Figures, levelHasFigure, type ProcedureFigures, type ServiceFigures } from './figures.js';
import { formatMoney, parseDecimal, roundUnits } from './format.js';
import { type Estimate, type EstimateLine, NOT_AVAILABLE, type Notice, type OtherPayer, type ServiceStatus } from './types.js';

type EstimateBasis = EstimateLine['basis'];

/**
 * Where the figures come from: the plan-wide blocks, and a real answer's entries, notices, other payers
 * and facts (mock answers have only the blocks).
 */
export type EstimateSources = Blocks<Figures> & {
  benefits?: readonly ServiceFigures[];
  procedures?: readonly ProcedureFigures[];
  notices?: readonly Notice[];
  otherPayers?: readonly OtherPayer[];
  estimateFacts?: EstimateFacts;
};

const DEFAULT_NETWORK = 'in';

/** Whether a procedures entry has any figure (payers often ignore procedure inquiries). */
const hasFigure = (entry: ProcedureFigures): boolean =>
  [entry.inNetwork, entry.outNetwork].some((block) => levelHasFigure(block.individual) || levelHasFigure(block.family));

interface LineFigures {
  basis: EstimateBasis;
  block: Block<Figures>;
  status: ServiceStatus | undefined;
  /** The messages of the entry the figures come from (none for the plan). */
  messages: readonly string[];
}

/** A line's figures: its procedure's entry when it has any figure, else its service's entry, else the plan. */
function figuresFor(sources: EstimateSources, network: 'in' | 'out', procedureCode: string | undefined, serviceTypeCode: string): LineFigures {
  const key = network === 'in' ? 'inNetwork' : 'outNetwork';
  const service = sources.benefits?.find((entry) => entry.serviceType.code === serviceTypeCode);
  const procedure = procedureCode === undefined ? undefined : sources.procedures?.find((entry) => entry.code === procedureCode);
  if (procedure && hasFigure(procedure)) return { basis: 'procedure', block: procedure[key], status: service?.status, messages: procedure.messages };
  if (service) return { basis: 'service', block: service[key], status: service.status, messages: service.messages };
  return { basis: 'plan', block: sources[key], status: undefined, messages: [] };
}

/** Messages that waive the deductible for the entry's services (any network, any case). */
const WAIVED = /DED(UCTIBLE)? WAIVED/i;

/** Insurance types of a Medicare secondary payer situation: another plan pays before Medicare. */
const MEDICARE_SECONDARY_PAYER_TYPES: ReadonlySet<string> = new Set(['12', '13', '14', '15', '16', '41', '42', '43', '47']);

/** Whether someone else may pay first: a Medicare Advantage notice, or an active other payer of an MSP type. */
const primaryPayerElsewhere = (sources: EstimateSources): boolean =>
  (sources.notices ?? []).some((notice) => notice.code === 'MEDICARE_ADVANTAGE') ||
  (sources.otherPayers ?? []).some((payer) => payer.activeOnDate && MEDICARE_SECONDARY_PAYER_TYPES.has(payer.insuranceType?.code ?? ''));

/** The reply-wide facts every line shares. */
interface Shared {
  network: 'in' | 'out';
  facts: EstimateFacts | undefined;
  familyOnly: boolean;
  primaryPayer: boolean;
}

/** The line's missing figures, each once, in the documented order. */
const inOrder = (missing: readonly MissingFigure[]): MissingFigure[] => MISSING_FIGURES.filter((figure) => missing.includes(figure));

function lineOf(
  request: EstimateRequest['lines'][number],
  sources: EstimateSources,
  shared: Shared,
  balances: Balances,
): { line: EstimateLine; amount: bigint; owes: bigint | undefined } {
  const service = serviceTypeOfLine(request);
  const amount = roundUnits(parseDecimal(String(request.amount)) ?? { units: 0n, scale: 0 }, 2);
  const { basis, block, status, messages } = figuresFor(sources, shared.network, request.procedureCode, service.code);
  const facts = shared.facts;
  const outOfNetworkExcluded =
    shared.network === 'out' && facts !== undefined && (facts.planExcludedOutOfNetwork || facts.excludedOutOfNetwork.includes(service.code));
  const rules: LineRules = {
    notCovered: status === 'NotCovered' || outOfNetworkExcluded,
    deductibleWaived: messages.some((message) => WAIVED.test(message)),
    familyOnly: shared.familyOnly,
    noDeductible: facts !== undefined && !facts.deductibleReported,
    noOutOfPocketMaximum: facts?.originalMedicare === true,
  };
  const { parts, owes, missing } = chargeLine(amount, block.individual, block.family, rules, balances);
  const named = inOrder(shared.primaryPayer ? [...missing, 'primaryPayer'] : missing);
  const money = (cents: bigint | undefined): string => (cents === undefined ? NOT_AVAILABLE : formatMoney(cents));
  const line: EstimateLine = {
    ...(request.procedureCode === undefined ? {} : { procedureCode: request.procedureCode }),
    serviceTypeCode: service.code,
    serviceTypeSource: service.source,
    amount: formatMoney(amount),
    basis,
    copay: formatMoney(parts.copay),
    deductible: money(parts.deductible),
    coinsurance: money(parts.coinsurance),
    patientOwes: money(owes),
    planPays: money(owes === undefined ? undefined : amount - owes),
    ...(named.length > 0 ? { missing: named } : {}),
  };
  return { line, amount, owes };
}

export function estimateOf(request: EstimateRequest, sources: EstimateSources): Estimate {
  const network = request.network ?? DEFAULT_NETWORK;
  const shared: Shared = {
    network,
    facts: sources.estimateFacts,
    familyOnly: (sources.notices ?? []).some((notice) => notice.code === 'FAMILY_LEVEL_ONLY'),
    primaryPayer: primaryPayerElsewhere(sources),
  };
  const balances: Balances = { deductibleUsed: 0n, paid: 0n };
  const lines: EstimateLine[] = [];
  let owes: bigint | undefined = 0n;
  let pays: bigint | undefined = 0n;
  for (const requested of request.lines) {
    const { line, amount, owes: lineOwes } = lineOf(requested, sources, shared, balances);
    lines.push(line);
    owes = owes === undefined || lineOwes === undefined ? undefined : owes + lineOwes;
    pays = pays === undefined || lineOwes === undefined ? undefined : pays + amount - lineOwes;
  }
  return {
    network,
    lines,
    patientOwes: owes === undefined ? NOT_AVAILABLE : formatMoney(owes),
    planPays: pays === undefined ? NOT_AVAILABLE : formatMoney(pays),
    complete: lines.every((line) => line.missing === undefined),
    ...(network === 'out' ? { balanceBillingPossible: true as const, balanceBillingNote: BALANCE_BILLING_NOTE } : {}),
  };
}

/**
 * The 270's service types and procedures once the estimate's lines join the request's own
 * (docs/eligibility.md#estimate): a line's service type is its own or its procedure's by the crosswalk.
 */
export function codesAsked(request: { serviceTypeCodes?: string[]; procedureCodes?: string[]; estimate?: EstimateRequest }): {
  serviceTypeCodes?: string[];
  procedureCodes?: string[];
} {
  const out: { serviceTypeCodes?: string[]; procedureCodes?: string[] } = {};
  const lines = request.estimate?.lines ?? [];
  const lineServices = lines.flatMap((line) => (line.serviceTypeCode === undefined && line.procedureCode === undefined ? [] : [serviceTypeOfLine(line).code]));
  if (request.serviceTypeCodes || lineServices.length > 0) {
    out.serviceTypeCodes = [...new Set([...(request.serviceTypeCodes ?? ['30']), ...lineServices])];
  }
  const lineProcedures = lines.flatMap((line) => (line.procedureCode === undefined ? [] : [line.procedureCode]));
  if (request.procedureCodes || lineProcedures.length > 0) out.procedureCodes = [...new Set([...(request.procedureCodes ?? []), ...lineProcedures])];
  return out;
}
