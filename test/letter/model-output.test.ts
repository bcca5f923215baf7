import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateLetter, type LetterAi } from '../../lib/letter/pipeline.js';
import type { LetterRequest } from '../../lib/validation/schemas.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';
import { type FakeAnthropic, letterAiAt, startFakeAnthropic } from '../support/anthropic-fake.js';
import { lakesideLetterRequest } from '../fixtures/letter/metadata.js';

/**
 * A model that will not stop (docs/letter.md#the-models-answer): the answer is streamed and read
 * with a cap counted on its text, so 20 MB of text from the wire-format fake ends in a 422 with the
 * connection dropped, not in 20 MB held in memory.
 */

let fake: FakeAnthropic;
let notes: string;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  notes = toBase64(await procedureNotesPdf());
});
afterAll(() => fake.close());

const request = (): LetterRequest => lakesideLetterRequest(notes);

const ai = (): LetterAi => letterAiAt(fake.url);

describe("the model's answer is read with a cap on its text", () => {
  it('asks for a stream with max_tokens set', async () => {
    fake.flood(10);
    await generateLetter(request(), ai());
    expect(fake.requests.at(-1)).toMatchObject({ stream: true, max_tokens: expect.any(Number) });
  });

  it('answers 422 LETTER_NOT_GENERATED to 20 MB of streamed text, dropping the connection past 1 MiB', async () => {
    const total = 20 * 1024 * 1024;
    fake.flood(total);
    const { result } = await generateLetter(request(), ai());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('LETTER_NOT_GENERATED');
    expect(result.error.message).toMatch(/longer than any letter/);
    // The fake saw the client hang up before it could send everything (it writes only as fast as the client reads).
    const { sentChars, hungUp } = await fake.flooded();
    expect(hungUp).toBe(true);
    expect(sentChars).toBeLessThan(total);
  });
});
