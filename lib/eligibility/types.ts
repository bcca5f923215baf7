/** Response shapes of the eligibility check (spec 2.2, CONTRACT §4). All figures are display strings. */

export const NOT_AVAILABLE = 'N/A';

export interface Deductible {
  /** Money text ("$1,234.50") or "N/A". */
  total: string;
  remaining: string;
}

export interface BenefitFigures {
  copay: string;
  deductible: Deductible;
  /** Percentage text ("20%", "12.5%") or "N/A". */
  coinsurance: string;
  stopLoss: string;
}

export interface BenefitBlock {
  individual: BenefitFigures;
  family: BenefitFigures;
}

export type CoverageStatus = 'Active' | 'Inactive' | 'Unknown';

export interface BenefitSummary {
  inNetwork: BenefitBlock;
  outNetwork: BenefitBlock;
  coverageStatus: CoverageStatus;
  /** 2100A NM103, when present. */
  payerName?: string;
}
