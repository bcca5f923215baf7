import { describe, expect, it } from '@jest/globals';
import { fixedClock } from '../../lib/config/clock.js';
import { checkEligibility } from '../../lib/eligibility/check.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { fail, serviceError } from '../../lib/errors/index.js';
import type { Clearinghouse } from '../../lib/runtime/clearinghouse.js';
import { controlNumberOfKey } from '../../lib/x12/build270.js';

/**
 * One key, one body (docs/batch.md#engine): a batch attempt's 270 is pinned to its upstream request key
 * (control numbers from the key, date and time from the attempt's start), so every send under the key,
 * the retry inside one call included, is the same bytes; a real-time check draws fresh numbers per send.
 * The port below asks for the 270 of two attempts, as the adapter does on a retry, and records what the
 * check built; it sends nothing anywhere.
 */

const enrollment: Enrollment = { providerId: 'P1', clientId: 'c1', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
const request = {
  patientFirstName: 'Ada',
  patientLastName: 'Lovelace',
  patientDOB: '12-10-1980',
  patientMemberId: 'M123',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'P1',
};

/** A clearinghouse that builds the 270 of attempts 1 and 2 and answers neither. */
function recording(): { clearinghouse: Clearinghouse; sent: { key: string | undefined; x12: string }[] } {
  const sent: { key: string | undefined; x12: string }[] = [];
  const clearinghouse = {
    sandbox: true,
    eligibility: async (call: { idempotencyKey?: string; x12: (attemptNo: number) => string }) => {
      for (const attemptNo of [1, 2]) sent.push({ key: call.idempotencyKey, x12: call.x12(attemptNo) });
      return { result: fail(serviceError('PAYER_UNAVAILABLE')), meta: { upstream: 'recording', attempts: 2, latencyMs: 0 } };
    },
  } as unknown as Clearinghouse;
  return { clearinghouse, sent };
}

describe('a batch attempt pins its 270 to its key', () => {
  const clock = fixedClock('2026-11-27T14:00:00Z');

  it('sends the same bytes on every attempt under one key, with the key as Idempotency-Key', async () => {
    const { clearinghouse, sent } = recording();
    const attempt = { key: 'b-7-1-270', startedAt: Date.parse('2026-11-24T21:07:00Z') };
    await checkEligibility({ request, enrollment, clearinghouse, clock, attempt });
    await checkEligibility({ request, enrollment, clearinghouse, clock, attempt });
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.x12)).size).toBe(1);
    expect(sent.every((s) => s.key === 'b-7-1-270')).toBe(true);
    // The attempt's start, not the clock's now, and the key's control number.
    expect(sent[0]!.x12).toContain(`*261124*2107*^*00501*${controlNumberOfKey('b-7-1-270')}*`);
  });

  it('sends other bytes under another key', async () => {
    const { clearinghouse, sent } = recording();
    const startedAt = Date.parse('2026-11-24T21:07:00Z');
    await checkEligibility({ request, enrollment, clearinghouse, clock, attempt: { key: 'b-7-1-270', startedAt } });
    await checkEligibility({ request, enrollment, clearinghouse, clock, attempt: { key: 'b-7-2-270', startedAt } });
    expect(sent[0]!.x12).not.toBe(sent[2]!.x12);
  });

  it('draws fresh control numbers for each send of a real-time check', async () => {
    const { clearinghouse, sent } = recording();
    await checkEligibility({ request, enrollment, clearinghouse, clock });
    expect(sent.map((s) => s.key)).toEqual([undefined, undefined]);
    expect(sent[0]!.x12).not.toBe(sent[1]!.x12);
    expect(sent[0]!.x12).toContain('*261127*1400*');
  });
});
