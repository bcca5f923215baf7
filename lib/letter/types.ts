import type { FromSchema } from 'json-schema-to-ts';
import type { letterResponseSchema } from '../validation/responses/letter.js';
import type { noticeSchema } from '../validation/responses/shared.js';
import type { LetterNoticeCode } from '../validation/responses/vocabulary.js';

/** A notice of the letter answer: the shared notice shape, with one of the letter codes. */
export type Notice = FromSchema<typeof noticeSchema> & { code: LetterNoticeCode };

/** The 200 body (docs/letter.md#response): `letter` or `fileContent`, then the common fields. */
export type LetterResponse = FromSchema<typeof letterResponseSchema>;
