import type { LetterRequest } from '../validation/schemas.js';
import type { Citation } from './citations.js';
import type { CodeReport } from './codes.js';

/**
 * The letter request's metadata (docs/letter.md, with the optional "Re:" fields), every field a string as
 * the caller sent it. `file_content` and `output_format` are not part of it: the PDF travels
 * separately and the output format is the handler's choice.
 */
export type LetterMetadata = Omit<LetterRequest, 'file_content' | 'output_format'>;

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
