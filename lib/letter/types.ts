import type { FromSchema } from 'json-schema-to-ts';
import type { LetterNoticeCode, letterResponseSchema, noticeSchema } from '../validation/index.js';

/** A notice of the letter answer: the shared notice shape, with one of the letter codes. */
export type Notice = FromSchema<typeof noticeSchema> & { code: LetterNoticeCode };

/** The 200 body (docs/letter.md#response): `letter` or `fileContent`, then the common fields. */
export type LetterResponse = FromSchema<typeof letterResponseSchema>;
