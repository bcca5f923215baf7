/**
 * `otherPayers` from the patient's EB01 R rows and their 2120 loops, and the `notices` a front desk
 * reads (docs/eligibility.md#other-payers and #notices). Notices never carry patient data.
 */
import { serviceTypeName } from '../x12/service-type-codes.js';
import { answersFor, type BenefitRow } from './benefit-row.js';
import { d8ToIso, periodDates } from './dates.js';
import { insuranceType } from './plan.js';
import { NOT_KNOWN, type Block } from './figures.js';
import type { Notice, OtherPayer } from './types.js';

const PAYER_ID_QUALIFIERS: ReadonlySet<string> = new Set(['PI', 'XV']);
/** EB01 R: other or additional payer. */
const OTHER_PAYER = 'R';
/** DTPs that date the other coverage; a D8 is its end for 347, its begin otherwise (docs/eligibility.md#other-payers-in-time). */
const COVERAGE_DATES: ReadonlySet<string> = new Set(['290', '291', '292', '346', '347']);
const END_DATE = '347';

const isOtherPayer = (row: BenefitRow): boolean => row.info === OTHER_PAYER;

type Coverage = Pick<OtherPayer, 'coverageBegin' | 'coverageEnd'>;

/** Whether the coverage is in force on the date (YYYY-MM-DD; no date: every coverage is). */
const activeOn = (payer: Coverage, date: string | undefined): boolean =>
  date === undefined || !((payer.coverageEnd !== undefined && payer.coverageEnd < date) || (payer.coverageBegin !== undefined && payer.coverageBegin > date));

function otherPayerOf(row: BenefitRow, date: string | undefined): OtherPayer {
  const entity = row.entity;
  const type = insuranceType(row.insuranceType);
  // In the order the row's dates give them (a lone end date comes first).
  const coverage: Coverage = {};
  for (const period of row.dates) {
    if (!COVERAGE_DATES.has(period.qualifier)) continue;
    const read = periodDates(period);
    if (read === undefined) continue;
    if ('single' in read) {
      if (period.qualifier === END_DATE) coverage.coverageEnd ??= d8ToIso(read.single);
      else coverage.coverageBegin ??= d8ToIso(read.single);
    } else {
      coverage.coverageBegin ??= d8ToIso(read.begin);
      coverage.coverageEnd ??= d8ToIso(read.end);
    }
  }
  const memberId = row.memberRef || row.entityMemberRef || (entity?.idQualifier === 'MI' ? entity.id : '');
  return {
    ...(entity && entity.name.trim() !== '' ? { name: entity.name.trim() } : {}),
    ...(entity && entity.id !== '' && PAYER_ID_QUALIFIERS.has(entity.idQualifier) ? { payerId: entity.id } : {}),
    ...(type ? { insuranceType: type } : {}),
    serviceTypes: [...row.services],
    ...coverage,
    ...(memberId !== '' ? { memberId } : {}),
    activeOnDate: activeOn(coverage, date),
  };
}

/** One item per EB01 R row of the patient, in order; `dateOfCoverage` is CCYYMMDD. */
export function otherPayersOf(rows: readonly BenefitRow[], dateOfCoverage?: string): OtherPayer[] {
  const date = dateOfCoverage === undefined ? undefined : d8ToIso(dateOfCoverage);
  const out: OtherPayer[] = [];
  for (const row of rows) if (isOtherPayer(row)) out.push(otherPayerOf(row, date));
  return out;
}

function otherPayerNotice(payers: readonly OtherPayer[]): Notice {
  let named = '';
  for (let i = 0; i < payers.length; i++) {
    const payer = payers[i]!;
    if (i > 0) named += '; ';
    named += payer.name ?? 'a payer not named';
    if (payer.insuranceType) named += `, ${payer.insuranceType.name}`;
  }
  return { code: 'OTHER_PAYER', message: `The payer reports other coverage (${named}); check which plan pays first.` };
}

/** EB04 HN: HMO Medicare risk. A Medicare Advantage contract number: H, R or E and four digits. */
const MEDICARE_RISK = 'HN';
const ADVANTAGE_CONTRACT = /^[HRE]\d{4}/;

const isAdvantage = (row: BenefitRow): boolean => row.insuranceType === MEDICARE_RISK || ADVANTAGE_CONTRACT.test(row.planRef.trim());

/** One notice for every active Advantage row: the first name given, the earliest begin date (docs/eligibility.md#medicare-advantage). */
function advantageNotice(payers: readonly OtherPayer[]): Notice {
  const name = payers.find((payer) => payer.name !== undefined)?.name;
  let since: string | undefined;
  for (const payer of payers) if (payer.coverageBegin !== undefined && (since === undefined || payer.coverageBegin < since)) since = payer.coverageBegin;
  const detail = [name, since === undefined ? undefined : `since ${since}`].filter((part) => part !== undefined).join(' ');
  return {
    code: 'MEDICARE_ADVANTAGE',
    message: `The patient is enrolled in a Medicare Advantage plan${detail === '' ? '' : ` (${detail})`}: bill that plan; the Original Medicare figures may not apply.`,
  };
}

/** The notices about other payers: active ones only; on Original Medicare, Advantage plans get their own notice. */
function otherPayerNotices(rows: readonly BenefitRow[], payers: readonly OtherPayer[], originalMedicare: boolean): Notice[] {
  const payerRows = rows.filter(isOtherPayer);
  const advantage: OtherPayer[] = [];
  const others: OtherPayer[] = [];
  payers.forEach((payer, i) => {
    if (!payer.activeOnDate) return;
    (originalMedicare && isAdvantage(payerRows[i]!) ? advantage : others).push(payer);
  });
  const notices: Notice[] = [];
  if (advantage.length > 0) notices.push(advantageNotice(advantage));
  if (others.length > 0) notices.push(otherPayerNotice(others));
  return notices;
}

/** Whether an individual deductible or out-of-pocket figure is not known while the family one is. */
function familyOnly(block: Block): boolean {
  const { individual: own, family } = block;
  const only = (mine: unknown, theirs: unknown): boolean => mine === NOT_KNOWN && theirs !== NOT_KNOWN;
  return (
    only(own.deductible.total, family.deductible.total) ||
    only(own.deductible.remaining, family.deductible.remaining) ||
    only(own.stopLoss, family.stopLoss) ||
    only(own.stopLossRemaining, family.stopLossRemaining)
  );
}

function familyOnlyNotice(inNetwork: Block, outNetwork: Block): Notice | undefined {
  const where = [familyOnly(inNetwork) ? 'in network' : '', familyOnly(outNetwork) ? 'out of network' : ''].filter(Boolean);
  if (where.length === 0) return undefined;
  return {
    code: 'FAMILY_LEVEL_ONLY',
    message: `The plan reports the deductible or out-of-pocket maximum only for the family (${where.join(', ')}); the family figures are the ones that apply to this patient.`,
  };
}

/** Requested service types and procedures no patient row lists. */
function notReturned(rows: readonly BenefitRow[], services: readonly string[], procedures: readonly string[]): string[] {
  const missing: string[] = [];
  for (const code of services) {
    if (!rows.some((row) => answersFor(row, code))) {
      const name = serviceTypeName(code);
      missing.push(name ? `service type ${code} (${name})` : `service type ${code}`);
    }
  }
  for (const code of procedures) if (!rows.some((row) => row.hasProcedure && row.procedure === code)) missing.push(`procedure ${code}`);
  return missing;
}

export interface NoticeInput {
  rows: readonly BenefitRow[];
  inNetwork: Block;
  outNetwork: Block;
  otherPayers: readonly OtherPayer[];
  /** The patient's own coverage is Original Medicare (docs/eligibility.md#original-medicare). */
  originalMedicare: boolean;
  /** Service types the request named explicitly (not the default 30), and its procedure codes. */
  explicitServices: readonly string[];
  procedures: readonly string[];
}

export function noticesOf(input: NoticeInput): Notice[] {
  const notices: Notice[] = [];
  notices.push(...otherPayerNotices(input.rows, input.otherPayers, input.originalMedicare));
  const family = familyOnlyNotice(input.inNetwork, input.outNetwork);
  if (family) notices.push(family);
  const missing = notReturned(input.rows, input.explicitServices, input.procedures);
  if (missing.length > 0) {
    notices.push({
      code: 'SERVICE_NOT_RETURNED',
      message: `The payer returned nothing for ${missing.join(', ')}; figures for ${missing.length === 1 ? 'it' : 'them'} are N/A, so ask the payer directly.`,
    });
  }
  return notices;
}
