import type { Enrollment, EnrollmentStore } from '../enrollment/index.js';
import { serviceError, type ErrorCode, type ServiceError } from '../errors/index.js';
import { SYSTEMS } from './codes.js';
import { isObject, type Json } from './request-shapes.js';

/**
 * Which identifier of the provider and of the insurer is ours to use (docs/fhir.md#identifiers): chosen
 * by `system`, never by position. The provider: our provider id (`urn:eligibility-service:provider-id`),
 * else its NPI (`http://hl7.org/fhir/sid/us-npi`, matched to the client's enrollments), else an
 * identifier without a system. The insurer: our payer id (`urn:eligibility-service:payer-id`), else an
 * identifier without a system, else its only identifier. A refusal that an identifier may have caused
 * names the identifiers used (system and value: ids of providers and payers, never patient data).
 */

/** What an identifier stands for: our provider id, an NPI to match to an enrollment, or our payer id. */
export type IdentifierKind = 'providerId' | 'npi' | 'payerId';

export interface ChosenIdentifier {
  kind: IdentifierKind;
  system?: string;
  value: unknown;
  /** Where it is (`Bundle.entry[4].resource.identifier[1]`). */
  path: string;
}

interface Candidate {
  identifier: Json;
  path: string;
}

interface Rule {
  kind: IdentifierKind;
  pick(candidates: Candidate[]): Candidate | undefined;
}

/** An ordered list of rules: the first that picks an identifier wins. */
export type IdentifierRules = readonly Rule[];

const bySystem =
  (system: string) =>
  (candidates: Candidate[]): Candidate | undefined =>
    candidates.find((c) => c.identifier.system === system);
const withoutSystem = (candidates: Candidate[]): Candidate | undefined => candidates.find((c) => c.identifier.system === undefined);
const onlyOne = (candidates: Candidate[]): Candidate | undefined => (candidates.length === 1 ? candidates[0] : undefined);

/** The provider's identifier, first rule that picks one wins. */
export const PROVIDER_RULES: IdentifierRules = [
  { kind: 'providerId', pick: bySystem(SYSTEMS.providerId) },
  { kind: 'npi', pick: bySystem(SYSTEMS.npi) },
  { kind: 'providerId', pick: withoutSystem },
];

/** The insurer's identifier, first rule that picks one wins. */
export const INSURER_RULES: IdentifierRules = [
  { kind: 'payerId', pick: bySystem(SYSTEMS.payerId) },
  { kind: 'payerId', pick: withoutSystem },
  { kind: 'payerId', pick: onlyOne },
];

/** The identifier these rules choose among `identifiers` (those with a value), at `path` (`….identifier`). */
export function chooseIdentifier(rules: IdentifierRules, identifiers: readonly unknown[], path: string): ChosenIdentifier | undefined {
  const candidates = identifiers.flatMap((identifier, i) =>
    isObject(identifier) && identifier.value !== undefined ? [{ identifier, path: `${path}[${i}]` }] : [],
  );
  for (const rule of rules) {
    const picked = rule.pick(candidates);
    if (!picked) continue;
    const system = typeof picked.identifier.system === 'string' ? picked.identifier.system : undefined;
    return { kind: rule.kind, value: picked.identifier.value, path: picked.path, ...(system ? { system } : {}) };
  }
  return undefined;
}

/** An identifier in words: its system (or none), its value and where it was found. */
export function describeIdentifier(identifier: ChosenIdentifier): string {
  const system = identifier.system ? `system ${identifier.system}` : 'no system';
  return `${system}, value ${JSON.stringify(String(identifier.value).slice(0, 80))}, at ${identifier.path}`;
}

/**
 * The client's enrollment for an NPI: the lowest provider id among the active ones open to this payer,
 * else the lowest of all (then the enrollment check refuses it, naming the NPI); undefined when none has it.
 */
export async function enrollmentForNpi(store: EnrollmentStore, clientId: string, npi: string, payerId: unknown): Promise<Enrollment | undefined> {
  const found = [...((await store.findByNpi?.(clientId, npi)) ?? [])].sort((a, b) => (a.providerId < b.providerId ? -1 : 1));
  const open = (e: Enrollment) => e.status === 'active' && (e.payerIds === undefined || e.payerIds.includes(String(payerId)));
  return found.find(open) ?? found[0];
}

export interface UsedIdentifiers {
  provider?: ChosenIdentifier;
  insurer?: ChosenIdentifier;
}

/** The refusals an identifier may have caused → whose identifiers their message names. */
const NAMED: Partial<Record<ErrorCode, readonly (keyof UsedIdentifiers)[]>> = {
  PROVIDER_NOT_ENROLLED: ['provider', 'insurer'],
  PAYER_NOT_SUPPORTED: ['insurer'],
  UNSUPPORTED_PAYER: ['insurer'],
};

/** The error, its message naming the identifiers used when it is a refusal they may have caused. */
export function namingIdentifiers(error: ServiceError, used: UsedIdentifiers): ServiceError {
  const parts = (NAMED[error.code] ?? []).flatMap((whose) => {
    const identifier = used[whose];
    return identifier ? [`${whose} identifier used: ${describeIdentifier(identifier)}`] : [];
  });
  return parts.length === 0 ? error : { ...error, message: `${error.message} (${parts.join('; ')})` };
}

/** No enrollment of this client has the NPI the request named its provider by. */
export function npiNotEnrolled(provider: ChosenIdentifier): ServiceError {
  return serviceError('PROVIDER_NOT_ENROLLED', {
    message: `No provider enrolled for this client has this NPI (provider identifier used: ${describeIdentifier(provider)}); give our provider id with system ${SYSTEMS.providerId}, or enroll the NPI`,
  });
}
