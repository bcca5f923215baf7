import type { LetterRequest } from '../validation/schemas.js';

/**
 * The letter request's metadata (spec 2.5), every field a string as the caller sent it.
 * `file_content` and `output_format` are not part of it: the PDF travels separately and the
 * output format is the handler's choice.
 */
export type LetterMetadata = Omit<LetterRequest, 'file_content' | 'output_format'>;
