import { fail, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import { isValidNpi } from './npi.js';
import type { Enrollment } from './types.js';

/**
 * Validates an enrollment record (docs/api.md#enrollment) before it is written or loaded. Every problem is
 * listed; messages never echo the submitted values. Unknown fields are rejected so a typo such as
 * `payerID` fails loudly instead of silently widening the enrollment to every payer.
 */

const ID_MAX = 80;
const NAME_MAX = 60;
const KNOWN = new Set(['providerId', 'clientId', 'npi', 'organizationName', 'firstName', 'lastName', 'status', 'payerIds']);
const STATUSES = new Set(['active', 'inactive']);

type Check = (value: unknown) => string | undefined;

const identifier: Check = (v) =>
  typeof v !== 'string' || v.trim() === '' ? 'must be a non-empty string' : v.length > ID_MAX ? `must be at most ${ID_MAX} characters` : undefined;

const name: Check = (v) =>
  typeof v !== 'string' || v.trim() === '' ? 'must be a non-empty string' : v.trim().length > NAME_MAX ? `must be at most ${NAME_MAX} characters` : undefined;

const CHECKS: Record<'providerId' | 'clientId' | 'npi' | 'status', Check> = {
  providerId: identifier,
  clientId: identifier,
  npi: (v) => (typeof v === 'string' && isValidNpi(v) ? undefined : 'must be a 10-digit NPI with a valid CMS check digit'),
  status: (v) => (typeof v === 'string' && STATUSES.has(v) ? undefined : 'must be "active" or "inactive"'),
};

function nameErrors(r: Record<string, unknown>): FieldError[] {
  const has = (k: string) => r[k] !== undefined;
  if (has('organizationName')) {
    const errors: FieldError[] = [];
    const problem = name(r.organizationName);
    if (problem) errors.push({ field: 'organizationName', message: problem });
    for (const k of ['firstName', 'lastName'] as const) {
      if (has(k)) errors.push({ field: k, message: 'must not be set together with organizationName' });
    }
    return errors;
  }
  if (!has('firstName') && !has('lastName')) {
    return [{ field: 'organizationName', message: 'either organizationName or firstName and lastName is required' }];
  }
  return (['firstName', 'lastName'] as const).flatMap((k) => {
    const problem = has(k) ? name(r[k]) : 'is required for a person provider';
    return problem ? [{ field: k, message: problem }] : [];
  });
}

function payerIdErrors(v: unknown): FieldError[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return [{ field: 'payerIds', message: 'must be an array of payer ids' }];
  if (v.length === 0) return [{ field: 'payerIds', message: 'must list at least one payer; omit it to allow every payer' }];
  return v.flatMap((item, i) => {
    const problem = identifier(item);
    return problem ? [{ field: `payerIds[${i}]`, message: problem }] : [];
  });
}

export function validateEnrollment(record: unknown): Result<Enrollment> {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return fail(serviceError('INVALID_REQUEST', { errors: [{ field: '', message: 'must be an object' }] }));
  }
  const r = record as Record<string, unknown>;
  const errors: FieldError[] = [
    ...Object.keys(r)
      .filter((k) => !KNOWN.has(k))
      .map((k) => ({ field: k, message: 'is not a known field' })),
    ...(Object.keys(CHECKS) as (keyof typeof CHECKS)[]).flatMap((k) => {
      const problem = CHECKS[k](r[k]);
      return problem ? [{ field: k, message: problem }] : [];
    }),
    ...nameErrors(r),
    ...payerIdErrors(r.payerIds),
  ];
  if (errors.length > 0) return fail(serviceError('INVALID_REQUEST', { errors }));

  // Rebuild the record from known fields only, so nothing unexpected is ever stored.
  const enrollment: Enrollment = {
    providerId: r.providerId as string,
    clientId: r.clientId as string,
    npi: r.npi as string,
    status: r.status as Enrollment['status'],
  };
  if (r.organizationName !== undefined) enrollment.organizationName = (r.organizationName as string).trim();
  else {
    enrollment.firstName = (r.firstName as string).trim();
    enrollment.lastName = (r.lastName as string).trim();
  }
  if (r.payerIds !== undefined) enrollment.payerIds = [...(r.payerIds as string[])];
  return ok(enrollment);
}
