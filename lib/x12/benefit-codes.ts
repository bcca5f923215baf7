/**
 * X12 005010 code lists an EB segment uses beside service types: EB04 insurance type (1336),
 * EB06 time period qualifier (615) and EB09 quantity qualifier (673, the values 005010X279A1
 * allows). Lookups use own keys only, so a code such as "constructor" names nothing.
 */

const INSURANCE_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '12': 'Medicare Secondary Working Aged Beneficiary or Spouse with Employer Group Health Plan',
  '13': "Medicare Secondary End-Stage Renal Disease Beneficiary in the Mandated Coordination Period with an Employer's Group Health Plan",
  '14': 'Medicare Secondary, No-fault Insurance including Auto is Primary',
  '15': "Medicare Secondary Worker's Compensation",
  '16': 'Medicare Secondary Public Health Service (PHS) or Other Federal Agency',
  '41': 'Medicare Secondary Black Lung',
  '42': "Medicare Secondary Veteran's Administration",
  '43': 'Medicare Secondary Disabled Beneficiary Under Age 65 with Large Group Health Plan (LGHP)',
  '47': 'Medicare Secondary, Other Liability Insurance is Primary',
  AP: 'Auto Insurance Policy',
  C1: 'Commercial',
  CO: 'Consolidated Omnibus Budget Reconciliation Act (COBRA)',
  CP: 'Medicare Conditionally Primary',
  D: 'Disability',
  DB: 'Disability Benefits',
  EP: 'Exclusive Provider Organization',
  FF: 'Family or Friends',
  GP: 'Group Policy',
  HM: 'Health Maintenance Organization (HMO)',
  HN: 'Health Maintenance Organization (HMO) - Medicare Risk',
  HS: 'Special Low Income Medicare Beneficiary',
  IN: 'Indemnity',
  IP: 'Individual Policy',
  LC: 'Long Term Care',
  LD: 'Long Term Policy',
  LI: 'Life Insurance',
  LT: 'Litigation',
  MA: 'Medicare Part A',
  MB: 'Medicare Part B',
  MC: 'Medicaid',
  MH: 'Medigap Part A',
  MI: 'Medigap Part B',
  MP: 'Medicare Primary',
  OT: 'Other',
  PE: 'Property Insurance - Personal',
  PL: 'Personal',
  PP: 'Personal Payment (Cash - No Insurance)',
  PR: 'Preferred Provider Organization (PPO)',
  PS: 'Point of Service (POS)',
  QM: 'Qualified Medicare Beneficiary',
  RP: 'Property Insurance - Real',
  SP: 'Supplemental Policy',
  TF: 'Tax Equity Fiscal Responsibility Act (TEFRA)',
  WC: 'Workers Compensation',
  WU: 'Wrapped Around Policy',
});

const TIME_PERIODS: Readonly<Record<string, string>> = Object.freeze({
  '6': 'Hour',
  '7': 'Day',
  '13': '24 Hours',
  '21': 'Years',
  '22': 'Service Year',
  '23': 'Calendar Year',
  '24': 'Year to Date',
  '25': 'Contract',
  '26': 'Episode',
  '27': 'Visit',
  '28': 'Outlier',
  '29': 'Remaining',
  '30': 'Exceeded',
  '31': 'Not Exceeded',
  '32': 'Lifetime',
  '33': 'Lifetime Remaining',
  '34': 'Month',
  '35': 'Week',
  '36': 'Admission',
});

const QUANTITY_QUALIFIERS: Readonly<Record<string, string>> = Object.freeze({
  '8H': 'Minimum',
  '99': 'Quantity Used',
  CA: 'Covered - Actual',
  CE: 'Covered - Estimated',
  D3: 'Number of Co-insurance Days',
  DB: 'Deductible Blood Units',
  DY: 'Days',
  HS: 'Hours',
  LA: 'Life-time Reserve - Actual',
  LE: 'Life-time Reserve - Estimated',
  M2: 'Maximum',
  MN: 'Month',
  P6: 'Number of Services or Procedures',
  QA: 'Quantity Approved',
  S7: 'Age, High Value',
  S8: 'Age, Low Value',
  VS: 'Visits',
  YY: 'Years',
});

function lookup(table: Readonly<Record<string, string>>, code: string): string | undefined {
  return Object.hasOwn(table, code) ? table[code] : undefined;
}

export const insuranceTypeName = (code: string): string | undefined => lookup(INSURANCE_TYPES, code);
export const timePeriodName = (code: string): string | undefined => lookup(TIME_PERIODS, code);
export const quantityQualifierName = (code: string): string | undefined => lookup(QUANTITY_QUALIFIERS, code);
