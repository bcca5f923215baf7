import { serviceError, type ServiceError } from '../errors/index.js';
import { log } from '../logging/index.js';
import type { PayerDirectory } from './directory.js';
import type { Transaction } from './types.js';

/**
 * The PAYER_NOT_SUPPORTED gate (docs/api.md#payer-directory): eligibility and COB ask it before any
 * charge. Only a payer the directory lists as NOT_SUPPORTED for the transaction is refused; a payer
 * the directory does not know, an outage, or no directory at all lets the request through (payer ids
 * have aliases the directory may not list: the gate never fails closed on a lookup).
 */

const WHAT: Record<Transaction, string> = { eligibility: 'eligibility checks', cob: 'coordination of benefits checks' };

export async function payerNotSupported(directory: PayerDirectory | undefined, payerId: string, transaction: Transaction): Promise<ServiceError | undefined> {
  if (!directory) return undefined;
  const found = await directory.find(payerId).catch((): undefined => undefined);
  if (!found?.ok) {
    log.warn('payer directory unavailable; request allowed', { payerId, ...(found ? { code: found.error.code } : {}) });
    return undefined;
  }
  const payer = found.value;
  if (payer?.transactions[transaction] !== 'NOT_SUPPORTED') return undefined;
  return serviceError('PAYER_NOT_SUPPORTED', {
    message: `${payer.name} (payer id ${payer.payerId}) does not accept ${WHAT[transaction]} through the clearinghouse; check the payer id with GET /api/payers`,
  });
}
