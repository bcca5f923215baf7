import { describe, expect, it } from '@jest/globals';
import { buildLetterRequest, CRITERIA_HEADING, DENIAL_HEADING } from '../../../lib/letter/compose/index.js';
import { LETTER_META as meta } from '../../fixtures/letter/metadata.js';

// What the model is sent for a policy-grounded letter (docs/letter.md#letter-types): the notes, then the
// policy, then the denial, each a cited document, and the layout of the sections it answers in.

describe('the criteria request', () => {
  it('sends the notes, the policy and the denial as cited documents in that order, and asks for the layout', () => {
    const request = buildLetterRequest('claude-test', 'Tk9URVM=', meta, {
      letterType: 'appeal',
      policy: { base64: 'UE9MSUNZ', name: 'MP-214  Lumbar\nFusion' },
      denial: { base64: 'REVOSUFM' },
    });
    const content = request.messages[0]!.content as unknown as Array<Record<string, unknown>>;
    expect(
      content.map((block) => [block.type, block.title ?? null, (block.source as { data?: string } | undefined)?.data ?? null, block.citations ?? null]),
    ).toEqual([
      ['document', 'Procedure notes', 'Tk9URVM=', { enabled: true }],
      ['document', 'Payer policy: MP-214 Lumbar Fusion', 'UE9MSUNZ', { enabled: true }],
      ['document', 'Denial letter', 'REVOSUFM', { enabled: true }],
      ['text', null, null, null],
    ]);
    const text = content[3]!.text as string;
    for (const part of [
      CRITERIA_HEADING,
      DENIAL_HEADING,
      'CRITERION:',
      'STATUS: met | not_met | unclear',
      'EVIDENCE:',
      'MISSING:',
      'REASON:',
      'CARC:',
      'RARC:',
      'DEADLINE:',
      'This is an appeal of a denial',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('leaves the plain letter request as it was: one document, no layout', () => {
    const content = buildLetterRequest('claude-test', 'Tk9URVM=', meta).messages[0]!.content as unknown as Array<Record<string, unknown>>;
    expect(content.map((block) => block.type)).toEqual(['document', 'text']);
    expect(content[1]!.text).not.toContain(CRITERIA_HEADING);
  });
});
