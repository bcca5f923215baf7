/**
 * `otherPayers` from the patient's EB01 R rows and their 2120 loops (docs/eligibility.md#other-payers);
 * the notices about them are notices.ts.
 */
import type { BenefitRow } from './benefit-row.js';
import { d8ToIso, periodDates } from './dates.js';
import { insuranceType } from './plan.js';
import type { OtherPayer } from './types.js';

const PAYER_ID_QUALIFIERS: ReadonlySet<string> = new Set(['PI', 'XV']);
/** EB01 R: other or additional payer. */
const OTHER_PAYER = 'R';
/** DTPs that date the other coverage; a D8 is its end for 347, its begin otherwise (docs/eligibility.md#other-payers-in-time). */
const COVERAGE_DATES: ReadonlySet<string> = new Set(['290', '291', '292', '346', '347']);
const END_DATE = '347';

export const isOtherPayer = (row: BenefitRow): boolean => row.info === OTHER_PAYER;

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
