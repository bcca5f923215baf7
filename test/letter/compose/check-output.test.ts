import { describe, it, expect } from '@jest/globals';
import { checkLetterBody } from '../../../lib/letter/compose/check-output.js';

const GOOD = `## Diagnosis

The patient has primary osteoarthritis of the right knee (**ICD-10 M17.11**), documented on weight-bearing radiographs.

## Requested Service

Total knee arthroplasty, right (*CPT 27447*).

## Clinical Rationale

- Fourteen months of pain limiting walking to one block
- Failure of 12 weeks of physical therapy, NSAIDs and two corticosteroid injections

Surgery is the remaining effective treatment. We ask that the payer approve the procedure.`;

const reason = (text: string, stop: string | null = 'end_turn') => {
  const result = checkLetterBody(text, stop);
  if (result.ok) return 'OK';
  expect(result.error.status).toBe(422);
  expect(result.error.code).toBe('LETTER_NOT_GENERATED');
  return result.error.message;
};

describe('checkLetterBody', () => {
  it('accepts a complete body and trims it', () => {
    const result = checkLetterBody(`\n\n${GOOD}\n  `, 'end_turn');
    expect(result).toEqual({ ok: true, value: GOOD });
  });

  it('unwraps a body wrapped in one markdown fence', () => {
    expect(checkLetterBody(`\`\`\`markdown\n${GOOD}\n\`\`\``, 'end_turn')).toEqual({ ok: true, value: GOOD });
  });

  it('keeps markdown links and bracketed codes', () => {
    expect(reason(`${GOOD}\n\nSee [guideline](https://example.org) and code [M17.11].`)).toBe('OK');
  });

  it.each([
    ['', /no letter text/],
    ['   \n ', /no letter text/],
    ['Short body.', /too short/],
  ])('rejects %j', (text, message) => expect(reason(text)).toMatch(message));

  it('rejects a body cut off at max_tokens', () => expect(reason(GOOD, 'max_tokens')).toMatch(/cut off/));
  it('rejects a refusal stop reason', () => expect(reason(GOOD, 'refusal')).toMatch(/declined/));

  it.each([
    '[Patient Name]',
    '[Date]',
    '[Insert diagnosis here]',
    '[Provider NPI]',
    '{{patient_name}}',
    '<insert date of surgery>',
    'Member ID XXX-XX',
    'Signed: ______',
  ])('rejects the placeholder %s', (placeholder) => expect(reason(GOOD.replace('the right knee', `the right knee ${placeholder}`))).toMatch(/placeholders/));

  it.each([
    'CANNOT_WRITE_LETTER: the document is an invoice',
    "I'm sorry, but I can't help with that request because the file is not clinical.",
    'I cannot write a letter of medical necessity from this document.',
    'I am unable to assist with this.',
  ])('rejects the refusal %j, even padded to length', (refusal) =>
    expect(reason(`${refusal}\n\n${'The document does not contain clinical notes. '.repeat(10)}`)).toMatch(/could not write/),
  );

  it('never quotes the output in its reason', () => {
    // Padded past the 250 characters a body needs (docs/letter.md#the-pipeline), so only the placeholder refuses it.
    const result = checkLetterBody(`Patient Zebediah Quux [Patient Name] ${'x '.repeat(250)}`, 'end_turn');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).not.toMatch(/Zebediah|Patient Name/);
  });
});

describe('answers the markdown parser would pay for', () => {
  const filler = 'The patient has documented knee osteoarthritis that limits walking and has not responded to care. ';
  it('refuses a body of more lines than any letter has (40,000 list items cost the parser 11 s)', () =>
    expect(checkLetterBody(`${filler.repeat(3)}\n${'- a\n'.repeat(1_000)}`, 'end_turn')).toMatchObject({
      ok: false,
      error: { code: 'LETTER_NOT_GENERATED', message: expect.stringMatching(/not shaped like a letter/) },
    }));
  it('refuses a body of more brackets than any letter has (40,000 "[b]" cost the parser 22 s)', () =>
    expect(checkLetterBody(`${filler.repeat(3)} ${'a [b] '.repeat(1_001)}`, 'end_turn')).toMatchObject({ ok: false, error: { code: 'LETTER_NOT_GENERATED' } }));
  it('keeps a long letter of one paragraph (20,000 short cited sentences)', () =>
    expect(checkLetterBody(`${filler.repeat(3)}${'Visit 1: knee score 31000. '.repeat(20_000)}`, 'end_turn').ok).toBe(true));
});
