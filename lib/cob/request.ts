/**
 * Builds the JSON body of Stedi's Coordination of Benefits Check (POST /coordination-of-benefits)
 * from a validated COB request and the provider's enrollment (docs/api.md#coordination-of-benefits).
 * Every name and id goes through cleanElement, the same cleaning as the 270's (docs/security.md#strings):
 * Stedi turns this body into X12 too, so delimiters and control characters never reach it.
 */
import { type CobRequest, US_DATE, usDateToIso } from '../validation/index.js';
import { randomInt } from 'node:crypto';
import { serviceError, ServiceFailure } from '../errors/index.js';
import type { Enrollment } from '../enrollment/index.js';
import { cleanElement } from '../x12/index.js';

/** The validated body of POST /api/eligibility/cob/v1, less providerId and mockRequest. Dates are MM-DD-YYYY. */
export type CobQuery = Omit<CobRequest, 'providerId' | 'mockRequest'>;

/** The provider part of an enrollment: an organization name, or a person's first and last name. */
export type CobProvider = Pick<Enrollment, 'npi' | 'organizationName' | 'firstName' | 'lastName'>;

/** Stedi's request shape (dates YYYY-MM-DD). Absent values are left out, never sent empty. */
export interface StediCobRequest {
  controlNumber: string;
  tradingPartnerServiceId: string;
  provider: { npi: string; organizationName?: string; firstName?: string; lastName?: string };
  subscriber: { firstName: string; lastName: string; dateOfBirth?: string; memberId?: string; ssn?: string };
  dependent?: { firstName?: string; lastName?: string; dateOfBirth?: string };
  encounter: { dateOfService: string; serviceTypeCode: '30' };
}

/** Stedi's COB check accepts only service type 30 (all medical); narrower codes are applied when mapping. */
const COB_SERVICE_TYPE_CODE = '30';

/** MM-DD-YYYY → YYYY-MM-DD. The body was validated; a bad date here is a programming error. */
function isoDate(usDate: string): string {
  const date = usDate.trim();
  if (!US_DATE.test(date)) throw new ServiceFailure(serviceError('INTERNAL_ERROR', { message: 'COB request built from an unvalidated date' }));
  return usDateToIso(date);
}

/** A 9-digit control number, unique enough per request to trace it through Stedi. */
function newControlNumber(): string {
  return String(randomInt(100_000_000, 1_000_000_000));
}

/** The cleaned value, or undefined when nothing is left of it. */
function present(value: string | undefined): string | undefined {
  const cleaned = value === undefined ? '' : cleanElement(value);
  return cleaned ? cleaned : undefined;
}

export function buildCobRequest(query: CobQuery, provider: CobProvider, options: { controlNumber?: string } = {}): StediCobRequest {
  const organizationName = present(provider.organizationName);
  const stediProvider: StediCobRequest['provider'] = { npi: cleanElement(provider.npi) };
  if (organizationName) stediProvider.organizationName = organizationName;
  else {
    const firstName = present(provider.firstName);
    const lastName = present(provider.lastName);
    if (firstName) stediProvider.firstName = firstName;
    if (lastName) stediProvider.lastName = lastName;
  }

  const subscriber: StediCobRequest['subscriber'] = {
    firstName: cleanElement(query.patientFirstName),
    lastName: cleanElement(query.patientLastName),
  };
  if (present(query.patientDOB)) subscriber.dateOfBirth = isoDate(query.patientDOB!);
  const memberId = present(query.patientMemberId);
  if (memberId) subscriber.memberId = memberId;
  if (present(query.patientSSN)) subscriber.ssn = query.patientSSN!.replace(/[-\s]/g, '');

  const request: StediCobRequest = {
    controlNumber: options.controlNumber ?? newControlNumber(),
    tradingPartnerServiceId: cleanElement(query.payerId),
    provider: stediProvider,
    subscriber,
    encounter: { dateOfService: isoDate(query.dateOfCoverage), serviceTypeCode: COB_SERVICE_TYPE_CODE },
  };

  const dependent: NonNullable<StediCobRequest['dependent']> = {};
  const dependentFirstName = present(query.dependentFirstName);
  const dependentLastName = present(query.dependentLastName);
  if (dependentFirstName) dependent.firstName = dependentFirstName;
  if (dependentLastName) dependent.lastName = dependentLastName;
  if (present(query.dependentDOB)) dependent.dateOfBirth = isoDate(query.dependentDOB!);
  if (Object.keys(dependent).length > 0) request.dependent = dependent;

  return request;
}

/**
 * Payer ids that reach Medicare (fee-for-service through CMS HETS) in Stedi's payer network. Stedi's
 * COB check does not cover Medicare or Medicare Advantage and answers such a check with AAA 75, so
 * the service can refuse it up front instead of paying for a certain miss.
 *
 * Only ids Stedi documents as Medicare are listed: CMS's primary id, its Stedi id and aliases, and the
 * MBI lookup ids. MAC contractor numbers (e.g. 10112) are five-digit ids that look like commercial
 * payer ids, so they are not guessed at by pattern; a COB check sent to one still fails cleanly (AAA 75
 * → 422 PAYER_REJECTED). Medicare Advantage plans run under their carriers' commercial ids and cannot
 * be told apart by id at all.
 */
const MEDICARE_PAYER_IDS: ReadonlySet<string> = new Set([
  'CMS', // primary payer id of National Centers for Medicare & Medicaid Services
  'JDNSN', // its Stedi payer id
  'CMSMED',
  'MAPMC',
  'MEDICARE',
  'Z1073',
  'MBILU', // MBI lookup with SSN
  'MBILUNOSSN', // MBI lookup without SSN
]);

export function isMedicarePayer(payerId: string): boolean {
  return MEDICARE_PAYER_IDS.has(payerId.trim().toUpperCase());
}
