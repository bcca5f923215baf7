import type { Citation, CodeReport } from './compose/index.js';

type NoticeCode = 'UNVERIFIED_CODE_REMOVED' | 'NOTES_NOT_MACHINE_READABLE' | 'GLYPHS_REPLACED' | 'CITATION_NOT_FOUND' | 'CITATIONS_LIMITED';

export interface Notice {
  code: NoticeCode;
  message: string;
}

/** The 200 body (docs/letter.md#response): `letter` or `fileContent`, then the common fields. */
export interface LetterResponse {
  letter?: string;
  fileContent?: string;
  timestamp: string;
  invoice_cost: string;
  patient_identifier: string;
  codes: CodeReport;
  citations: Citation[];
  notices: Notice[];
}
