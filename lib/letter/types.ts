import type { FromSchema } from 'json-schema-to-ts';
import type { letterResponseSchema } from '../validation/responses/letter.js';
import type { noticeSchema } from '../validation/responses/shared.js';
import type { LetterNoticeCode } from '../validation/responses/vocabulary.js';
import type { LetterRequest } from '../validation/schemas.js';

/**
 * The letter request's metadata (docs/letter.md, with the optional "Re:" fields), every field a string as
 * the caller sent it. `file_content` and `output_format` are not part of it: the PDF travels
 * separately and the output format is the handler's choice.
 */
export type LetterMetadata = Omit<LetterRequest, 'file_content' | 'output_format'>;

/** A notice of the letter answer: the shared notice shape, with one of the letter codes. */
export type Notice = FromSchema<typeof noticeSchema> & { code: LetterNoticeCode };

/** The 200 body (docs/letter.md#response): `letter` or `fileContent`, then the common fields. */
export type LetterResponse = FromSchema<typeof letterResponseSchema>;
