/**
 * Stedi's insurance discovery in and out (docs/finding-coverage.md#upstream): the request body built
 * from ours, and the few fields of its answer we rely on: `discoveryId`, `status` (PENDING or
 * COMPLETE; ERROR is an upstream error), and per item `payer.name`, `payer.payorIdentification`,
 * `subscriber.memberId`, `planInformation.groupNumber` (else `subscriber.groupNumber`) and, when
 * present, a raw 271 in `x12`. Stedi's JSON benefits are never read: each coverage's answer comes from
 * the one 271 reader (./coverages.ts). Every value sent goes through the 270's cleaning.
 */
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { isJsonObject, type JsonObject } from '../upstream/json.js';
import { usDateToD8 } from '../validation/formats.js';
import type { DiscoveryRequest } from '../validation/schemas.js';
import { cleanElement as clean, x12Name } from '../x12/clean.js';
import type { FoundCoverage, UpstreamDiscovery } from './types.js';

/** At most this many coverages of one discovery are kept (each may cost one check): lists are capped where built. */
export const MAX_COVERAGES = 10;
/** A value from the payer longer than this is cut (names, ids). */
const MAX_TEXT = 80;

/** The body of Stedi's discovery check for our request, with the enrolled provider's NPI. */
export function stediDiscoveryRequest(request: DiscoveryRequest, npi: string): JsonObject {
  const address = request.patientAddress;
  return {
    provider: { npi: clean(npi) },
    subscriber: {
      firstName: x12Name(request.patientFirstName),
      lastName: x12Name(request.patientLastName),
      dateOfBirth: usDateToD8(request.patientDOB),
      ...(request.patientGender ? { gender: request.patientGender } : {}),
      ...(request.patientSSN ? { ssn: request.patientSSN.replace(/-/g, '') } : {}),
      ...(address
        ? { address: { address1: clean(address.street), city: clean(address.city), state: address.state, postalCode: address.zip.replace(/-/g, '') } }
        : {}),
    },
    encounter: { dateOfService: usDateToD8(request.dateOfService) },
  };
}

const text = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, MAX_TEXT);
  return trimmed === '' ? undefined : trimmed;
};
const objectAt = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});

function foundCoverage(item: JsonObject): FoundCoverage {
  const payer = objectAt(item.payer);
  const subscriber = objectAt(item.subscriber);
  const found: FoundCoverage = { payerName: text(payer.name) ?? 'Unknown payer' };
  const payerId = text(payer.payorIdentification);
  if (payerId) found.payerId = payerId;
  const memberId = text(subscriber.memberId);
  if (memberId) found.memberId = memberId;
  const groupNumber = text(objectAt(item.planInformation).groupNumber) ?? text(subscriber.groupNumber);
  if (groupNumber) found.groupNumber = groupNumber;
  if (typeof item.x12 === 'string' && item.x12.trim() !== '') found.x12 = item.x12;
  return found;
}

const unreadable = (what: string) => fail(serviceError('UPSTREAM_ERROR', { message: `The insurance discovery answer could not be read (${what})` }));

/** Stedi's answer (200 or 400) as a discovery, or the error it amounts to. */
export function readStediDiscovery(httpStatus: number, body: JsonObject): Result<UpstreamDiscovery> {
  if (httpStatus !== 200) return fail(serviceError('UPSTREAM_ERROR', { message: 'The clearinghouse refused the insurance discovery request' }));
  const upstreamId = text(body.discoveryId);
  if (!upstreamId) return unreadable('no discoveryId');
  if (body.status === 'ERROR') return fail(serviceError('UPSTREAM_ERROR', { message: 'The clearinghouse could not complete the insurance discovery' }));
  if (body.status !== 'PENDING' && body.status !== 'COMPLETE') return unreadable('no status');
  const items = Array.isArray(body.items) ? body.items.filter(isJsonObject).slice(0, MAX_COVERAGES) : [];
  return ok({ upstreamId, status: body.status, found: body.status === 'COMPLETE' ? items.map(foundCoverage) : [] });
}
