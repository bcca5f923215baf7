import { describe, expect, it } from '@jest/globals';
import { fail, ok, serviceError } from '../../lib/errors/index.js';
import { payerDirectory } from '../../lib/payers/directory.js';
import { payerNotSupported } from '../../lib/payers/gate.js';
import type { StediPayerRecord } from '../../lib/upstream/stedi-payers.js';

/** The PAYER_NOT_SUPPORTED gate: refuses only what the directory lists as NOT_SUPPORTED; never fails closed. */

const record = (eligibilityCheck: string, coordinationOfBenefits: string): StediPayerRecord =>
  ({
    displayName: 'Delta Dental of South Dakota',
    primaryPayerId: '54097',
    aliases: ['54097'],
    transactionSupport: { eligibilityCheck, coordinationOfBenefits },
  }) as StediPayerRecord;
const directoryOf = (items: StediPayerRecord[]) => payerDirectory({ search: async () => ok({ items }), clock: { now: () => 0 } });

describe('payer gate', () => {
  it('refuses a payer listed as NOT_SUPPORTED for the transaction with 422 PAYER_NOT_SUPPORTED naming it', async () => {
    const error = await payerNotSupported(directoryOf([record('NOT_SUPPORTED', 'SUPPORTED')]), '54097', 'eligibility');
    expect(error).toMatchObject({ status: 422, code: 'PAYER_NOT_SUPPORTED' });
    expect(error?.message).toContain('Delta Dental of South Dakota (payer id 54097) does not accept eligibility checks');
  });

  it('looks at the transaction asked about only', async () => {
    const directory = directoryOf([record('SUPPORTED', 'NOT_SUPPORTED')]);
    expect(await payerNotSupported(directory, '54097', 'eligibility')).toBeUndefined();
    expect((await payerNotSupported(directory, '54097', 'cob'))?.code).toBe('PAYER_NOT_SUPPORTED');
  });

  it('lets SUPPORTED and ENROLLMENT_REQUIRED through', async () => {
    expect(await payerNotSupported(directoryOf([record('ENROLLMENT_REQUIRED', 'SUPPORTED')]), '54097', 'eligibility')).toBeUndefined();
    expect(await payerNotSupported(directoryOf([record('SUPPORTED', 'SUPPORTED')]), '54097', 'cob')).toBeUndefined();
  });

  it('lets a payer the directory does not know through (ids have aliases it may not list)', async () => {
    expect(await payerNotSupported(directoryOf([record('NOT_SUPPORTED', 'NOT_SUPPORTED')]), 'SBXPPO', 'eligibility')).toBeUndefined();
  });

  it('fails open on an outage, a thrown lookup, or no directory at all', async () => {
    const down = payerDirectory({ search: async () => fail(serviceError('PAYER_UNAVAILABLE')), clock: { now: () => 0 } });
    const throws = payerDirectory({ search: async () => Promise.reject(new Error('socket hang up')), clock: { now: () => 0 } });
    expect(await payerNotSupported(down, '54097', 'eligibility')).toBeUndefined();
    expect(await payerNotSupported(throws, '54097', 'eligibility')).toBeUndefined();
    expect(await payerNotSupported(undefined, '54097', 'eligibility')).toBeUndefined();
  });
});
