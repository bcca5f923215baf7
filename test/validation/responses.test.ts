import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CARD_NOTICE_CODES, ELIGIBILITY_NOTICE_CODES, LETTER_NOTICE_CODES, NOTICE_CODES } from '../../lib/validation/responses/vocabulary.js';
import { responseProblems } from '../support/response-schemas.js';

/**
 * The notice codes are one list (lib/validation/responses/vocabulary.ts, docs/api.md#response-shapes): the
 * notice schema's enum is that list, so an answer carrying a code outside it fails its shape check, and
 * the published document names the same codes.
 */

const realAnswer = (notices: unknown[]) => ({
  inNetwork: { individual: level(), family: level() },
  outNetwork: { individual: level(), family: level() },
  message: 'Eligibility check successful',
  coverageStatus: 'Active',
  checkedAt: '2025-03-01T12:00:00.000Z',
  plan: {},
  subscriber: {},
  benefits: [],
  otherPayers: [],
  notices,
});
function level() {
  return { copay: 'N/A', deductible: { total: 'N/A', remaining: 'N/A' }, coinsurance: 'N/A', stopLoss: 'N/A', stopLossRemaining: 'N/A' };
}

describe('notice codes', () => {
  it('are the eligibility list, the letter list, then the card list, each code once', () => {
    expect(NOTICE_CODES).toEqual([...ELIGIBILITY_NOTICE_CODES, ...LETTER_NOTICE_CODES, ...CARD_NOTICE_CODES]);
    expect(new Set(NOTICE_CODES).size).toBe(NOTICE_CODES.length);
  });

  it('bound what an answer may carry: every listed code passes, any other fails', () => {
    for (const code of NOTICE_CODES) expect(responseProblems('eligibility', realAnswer([{ code, message: 'A sentence.' }]))).toEqual([]);
    expect(responseProblems('realEligibility', realAnswer([{ code: 'MADE_UP', message: 'A sentence.' }]))).toEqual([
      'realEligibility/notices/0/code must be equal to one of the allowed values',
    ]);
  });

  it('are the enum the published document gives a notice', () => {
    const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(document.components.schemas.Notice.properties.code.enum).toEqual([...NOTICE_CODES]);
  });
});
