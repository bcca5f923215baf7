import { describe, expect, it } from '@jest/globals';
import { CARD_TOOL, cardRequest, readCardAnswer } from '../../lib/card/model.js';
import type { Message } from '../../lib/upstream/anthropic.js';

/** The model's answer is data (docs/finding-coverage.md#model-output-is-data): checked field by field and cleaned. */

const answer = (input: unknown, stop = 'tool_use'): Message =>
  ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
    content: [{ type: 'tool_use', id: 't1', name: CARD_TOOL, input }],
  }) as unknown as Message;

describe('readCardAnswer', () => {
  it('cleans every string: control, direction-control and invisible characters out, cut to its limit', () => {
    const read = readCardAnswer(
      answer({
        isInsuranceCard: true,
        payerName: 'Aet\u200Bna\u202E',
        memberId: ' W123\n456 ',
        planName: 'x'.repeat(500),
        claimsAddress: `P.O. Box 1\u2028${'y'.repeat(500)}`,
        dependents: ['ANA\u0000 DOE', '\u200B', 7],
        copays: [{ service: 'PCP', amount: '$25' }, { service: 'ER' }, 'junk'],
        confidence: { payerName: 'high', memberId: 'certain' },
      }),
    );
    expect(read.read).toBe(true);
    if (!read.read) return;
    expect(read.card.payerName).toBe('Aetna');
    expect(read.card.memberId).toBe('W123 456');
    expect(read.card.planName).toHaveLength(100);
    expect(read.card.claimsAddress).toHaveLength(200);
    expect(read.card.dependents).toEqual(['ANA DOE']);
    expect(read.card.copays).toEqual([{ service: 'PCP', amount: '$25' }]);
    // A level outside the three, or none, is low; only fields the card holds have one.
    expect(read.confidence).toEqual({ payerName: 'high', memberId: 'low', planName: 'low', claimsAddress: 'low', dependents: 'low', copays: 'low' });
  });

  it('drops keys that are not card fields and values of another type', () => {
    const read = readCardAnswer(answer({ isInsuranceCard: true, memberId: 'A1', groupNumber: 42, ssn: '123-45-6789', rxBin: { a: 1 } }));
    expect(read).toEqual({ read: true, card: { memberId: 'A1' }, confidence: { memberId: 'low' } });
  });

  it.each([
    ['the model says it is no card', answer({ isInsuranceCard: false, memberId: 'A1' })],
    ['isInsuranceCard is not true', answer({ isInsuranceCard: 'yes', memberId: 'A1' })],
    ['no field survives cleaning', answer({ isInsuranceCard: true, memberId: '\u200B\u200B' })],
    ['the model refused', answer({ isInsuranceCard: true, memberId: 'A1' }, 'refusal')],
    ['the answer was cut', answer({ isInsuranceCard: true, memberId: 'A1' }, 'max_tokens')],
    ['no tool call', { ...answer({}), content: [{ type: 'text', text: 'Member ID A1' }] } as unknown as Message],
  ])('is no card when %s', (_why, message) => {
    expect(readCardAnswer(message)).toEqual({ read: false });
  });
});

describe('cardRequest', () => {
  it('forces the one tool and sends each side as an image block with its media type', () => {
    const request = cardRequest('claude-x', [
      { side: 'front', header: { format: 'png', mediaType: 'image/png', width: 1, height: 1 }, base64: 'AAAA' },
      { side: 'back', header: { format: 'jpeg', mediaType: 'image/jpeg', width: 1, height: 1 }, base64: 'BBBB' },
    ]);
    expect(request.tool_choice).toEqual({ type: 'tool', name: CARD_TOOL });
    expect(request.tools).toHaveLength(1);
    const content = request.messages[0]!.content as Array<{ type: string; source?: { media_type: string; data: string } }>;
    expect(content.filter((block) => block.type === 'image').map((block) => [block.source!.media_type, block.source!.data])).toEqual([
      ['image/png', 'AAAA'],
      ['image/jpeg', 'BBBB'],
    ]);
    expect(String(request.system)).toMatch(/never infer/i);
  });
});
