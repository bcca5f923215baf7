import type {
  CodeableConcept,
  Coverage,
  CoverageEligibilityRequest,
  Organization,
  Patient,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { fail, ok, serviceError, type FieldError, type Result } from '../errors/index.js';
import { MOCK_TAG, PROCEDURE_SYSTEMS, SERVICE_TYPE_SYSTEMS, SYSTEMS } from './codes.js';
import { chooseIdentifier, INSURER_RULES, PROVIDER_RULES, type ChosenIdentifier, type IdentifierRules, type UsedIdentifiers } from './identifiers.js';
import { findRequest, isObject, list, text, unknownModifierExtensions, type Json, type Located } from './request-shapes.js';

/**
 * Reads a `$submit` body (docs/fhir.md#the-request; its shapes: ./request-shapes.ts) into the body of
 * POST /api/eligibility/v1, and remembers where each value came from (a FHIRPath-like expression) so that
 * the eligibility schema's problems can be reported at the FHIR element that holds the value. What cannot
 * be mapped at all (no CoverageEligibilityRequest, a reference to nothing, a partial date, a modifier
 * extension) is a problem here, at once. A provider named by NPI is left for the route to match to an
 * enrollment (`providerNpi`).
 */

/** What the answer refers back to: the request's own references, as the caller wrote them. */
export interface RequestContext {
  request: Reference<CoverageEligibilityRequest>;
  patient: Reference<Patient>;
  insurer: Reference<Organization>;
  provider?: Reference<Practitioner | PractitionerRole | Organization>;
  coverage?: Reference<Coverage>;
  purpose: CoverageEligibilityRequest['purpose'];
  /** The caller's concept of each requested procedure code, echoed on its items. */
  procedures: Record<string, CodeableConcept>;
}

export interface MappedRequest {
  /** The eligibility body, not yet validated (lib/validation holds it to the same rules as the REST route). */
  body: Json;
  /** Body field (`patientDOB`, `serviceTypeCodes[1]`) → where it came from (`Bundle.entry[1].resource.birthDate`). */
  sources: Record<string, string>;
  context: RequestContext;
  /** The provider's and the insurer's identifiers as chosen (./identifiers.ts): a refusal names them. */
  identifiers: UsedIdentifiers;
  /** Set when the provider is named by NPI: the route finds its provider id among the client's enrollments. */
  providerNpi?: ChosenIdentifier;
}

const PURPOSES = ['auth-requirements', 'benefits', 'discovery', 'validation'] as const;
const FHIR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** More items than this are refused on the count, before any is read: bounded work per request (docs/fhir.md#the-request). */
const MAX_ITEMS = 40;

/** FHIR `YYYY-MM-DD` (a real calendar date) → our `MM-DD-YYYY`; undefined when partial or impossible. */
function fhirDateToUs(value: string): string | undefined {
  const match = FHIR_DATE.exec(value.slice(0, 10));
  if (!match || (value.length > 10 && value[10] !== 'T')) return undefined;
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const real = date.getUTCFullYear() === Number(year) && date.getUTCMonth() + 1 === Number(month) && date.getUTCDate() === Number(day);
  return real ? `${month}-${day}-${year}` : undefined;
}

class Reader {
  readonly errors: FieldError[] = [];
  readonly body: Json = {};
  readonly sources: Record<string, string> = {};
  /** Every resource read, for the modifier extension check. */
  readonly read: Located[] = [];
  constructor(private readonly resolve: (reference: string) => Located | undefined) {}

  problem(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  set(field: string, value: unknown, source: string): void {
    if (value !== undefined) this.body[field] = value;
    this.sources[field] = source;
  }

  /** The resource a Reference points at (a Bundle entry or a contained resource), of one of the given types. */
  entry(reference: unknown, path: string, types: readonly string[], what: string): Located | undefined {
    const target = isObject(reference) ? text(reference.reference) : undefined;
    if (!target) return this.problem(path, `is required: a reference to the ${what} (a Bundle entry or a contained resource)`);
    const found = this.resolve(target);
    if (!found)
      return this.problem(
        `${path}.reference`,
        `must point at an entry of the Bundle (by fullUrl or Type/id) or a contained resource (#id); nothing matches ${JSON.stringify(target.slice(0, 100))}`,
      );
    if (!types.includes(String(found.resource.resourceType)))
      return this.problem(`${path}.reference`, `must point at a resource of type ${types.join(' or ')}`);
    this.read.push(found);
    return found;
  }

  /**
   * The identifier the rules choose (./identifiers.ts) among the referenced resource's identifiers, or
   * the Reference's own `identifier` (a logical reference, no resource needed). Its value becomes `field`
   * unless it is an NPI, which the route matches to an enrollment.
   */
  identifier(field: keyof typeof IDENTIFIER_HELP, rules: IdentifierRules, reference: unknown, path: string, types: readonly string[], what: string) {
    const logical = isObject(reference) && isObject(reference.identifier) && reference.reference === undefined ? reference.identifier : undefined;
    const found = logical ? undefined : this.entry(reference, path, types, what);
    if (!logical && !found) return undefined;
    const where = found ? `${found.path}.identifier` : `${path}.identifier`;
    const picked = found ? chooseIdentifier(rules, list(found.resource.identifier), where) : chooseIdentifier(rules, [logical], where);
    if (!picked) return this.problem(where, IDENTIFIER_HELP[field]);
    // A logical reference holds one identifier, not a list: it is named without an index.
    const chosen = found ? picked : { ...picked, path: where };
    this.set(field, chosen.kind === 'npi' ? undefined : chosen.value, `${chosen.path}.value`);
    return chosen;
  }

  date(field: string, value: unknown, source: string): void {
    const us = typeof value === 'string' ? fhirDateToUs(value) : undefined;
    if (value !== undefined && !us) this.problem(source, 'must be a full date in the form YYYY-MM-DD that exists on the calendar');
    else this.set(field, us, source);
  }
}

/** What to send when no identifier can be used (docs/fhir.md#identifiers). */
const IDENTIFIER_HELP = {
  payerId: `must have an identifier with a value: our payer id with system ${SYSTEMS.payerId}, one without a system, or a single identifier`,
  providerId: `must have an identifier with a value: our provider id with system ${SYSTEMS.providerId}, an NPI (${SYSTEMS.npi}), or one without a system`,
} as const;

/** The patient's name: the official one, else the usual one, else the first. */
function patientName(reader: Reader, patient: Located): void {
  const names = list(patient.resource.name);
  const pick = ['official', 'usual'].map((use) => names.findIndex((n) => isObject(n) && n.use === use)).find((i) => i >= 0) ?? 0;
  const name = names[pick];
  const path = `${patient.path}.name[${pick}]`;
  if (!isObject(name)) {
    reader.set('patientFirstName', undefined, `${patient.path}.name`);
    reader.set('patientLastName', undefined, `${patient.path}.name`);
    return;
  }
  reader.set('patientFirstName', list(name.given)[0], `${path}.given[0]`);
  reader.set('patientLastName', name.family, `${path}.family`);
}

/** Coverage.identifier of type MB (member number): the member id when there is no subscriberId. */
const isMemberNumber = (identifier: unknown): boolean =>
  isObject(identifier) &&
  isObject(identifier.type) &&
  list(identifier.type.coding).some((c) => isObject(c) && c.code === 'MB' && (c.system === undefined || c.system === SYSTEMS.identifierType));

/** The insurance to check: the one marked `focal`, else the first. */
function coverage(reader: Reader, request: Located): unknown {
  const insurance = list(request.resource.insurance);
  if (insurance.length === 0) return reader.problem(`${request.path}.insurance`, 'is required: the Coverage to check (its subscriberId is the member id)');
  const index = Math.max(
    0,
    insurance.findIndex((item) => isObject(item) && item.focal === true),
  );
  const item = insurance[index];
  const path = `${request.path}.insurance[${index}].coverage`;
  const found = reader.entry(isObject(item) ? item.coverage : undefined, path, ['Coverage'], 'Coverage');
  if (!found) return undefined;
  const member = list(found.resource.identifier).findIndex(isMemberNumber);
  if (found.resource.subscriberId === undefined && member >= 0) {
    reader.set('patientMemberId', (list(found.resource.identifier)[member] as Json).value, `${found.path}.identifier[${member}].value`);
  } else reader.set('patientMemberId', found.resource.subscriberId, `${found.path}.subscriberId`);
  return (item as Json).coverage;
}

/** item[].category (X12 service types) and item[].productOrService (CPT, HCPCS, CDT). */
function items(reader: Reader, request: Located, procedures: Record<string, CodeableConcept>): void {
  const serviceTypes: string[] = [];
  const procedureCodes: string[] = [];
  const seen = new Set<string>();
  const add = (into: string[], field: string, code: unknown, source: string) => {
    if (typeof code === 'string' && seen.has(`${field}|${code}`)) return;
    if (typeof code === 'string') seen.add(`${field}|${code}`);
    reader.sources[`${field}[${into.length}]`] = source;
    into.push(code as string);
  };
  const all = list(request.resource.item);
  if (all.length > MAX_ITEMS) {
    reader.problem(
      `${request.path}.item`,
      `must list at most ${MAX_ITEMS} items (each names one service type and/or one procedure; at most 10 of each are checked)`,
    );
    return;
  }
  for (const [i, item] of all.entries()) {
    const path = `${request.path}.item[${i}]`;
    if (!isObject(item) || (item.category === undefined && item.productOrService === undefined)) {
      reader.problem(path, 'must have a category (an X12 service type) or a productOrService (a CPT, HCPCS or CDT code)');
      continue;
    }
    if (item.category !== undefined) {
      const codings = isObject(item.category) ? list(item.category.coding) : [];
      const j = codings.findIndex((c) => isObject(c) && typeof c.system === 'string' && SERVICE_TYPE_SYSTEMS.has(c.system));
      if (j < 0) reader.problem(`${path}.category`, `must have a coding from ${[...SERVICE_TYPE_SYSTEMS].join(' or ')} (X12 service type codes)`);
      else add(serviceTypes, 'serviceTypeCodes', (codings[j] as Json).code, `${path}.category.coding[${j}].code`);
    }
    if (item.productOrService !== undefined) {
      const codings = isObject(item.productOrService) ? list(item.productOrService.coding) : [];
      const j = codings.findIndex((c) => isObject(c) && typeof c.system === 'string' && PROCEDURE_SYSTEMS.has(c.system));
      if (j < 0) {
        reader.problem(`${path}.productOrService`, 'must have a coding from CPT (http://www.ama-assn.org/go/cpt), HCPCS or CDT');
        continue;
      }
      const coding = codings[j] as Json;
      add(procedureCodes, 'procedureCodes', coding.code, `${path}.productOrService.coding[${j}].code`);
      if (typeof coding.code === 'string') {
        procedures[coding.code] = {
          coding: [{ system: coding.system as string, code: coding.code, ...(typeof coding.display === 'string' ? { display: coding.display } : {}) }],
        };
      }
    }
  }
  if (serviceTypes.length > 0) reader.set('serviceTypeCodes', serviceTypes, `${request.path}.item`);
  if (procedureCodes.length > 0) reader.set('procedureCodes', procedureCodes, `${request.path}.item`);
}

/**
 * A caller's Reference reduced to its plain strings, so the answer never echoes an element it did not check.
 * A reference to a contained resource (`#pat`) would point at nothing in the answer: it becomes the
 * identifier used (insurer, provider) or a display naming what it was.
 */
function cleanReference<T extends Resource>(value: unknown, what: string, used?: ChosenIdentifier): Reference<T> {
  const source = isObject(value) ? value : {};
  const reference: Reference<T> = {};
  const local = typeof source.reference === 'string' && source.reference.startsWith('#');
  if (typeof source.reference === 'string' && !local) reference.reference = source.reference;
  if (isObject(source.identifier)) {
    const { system, value: idValue } = source.identifier;
    reference.identifier = { ...(typeof system === 'string' ? { system } : {}), ...(typeof idValue === 'string' ? { value: idValue } : {}) };
  } else if (local && used && typeof used.value === 'string') {
    reference.identifier = { ...(used.system ? { system: used.system } : {}), value: used.value };
  }
  if (typeof source.display === 'string') reference.display = source.display;
  else if (local && !reference.identifier) reference.display = `The ${what} contained in the request`;
  return reference;
}

/** servicedPeriod with its start after its end (dates compared as dates when either has no time). */
function periodReversed(period: Json): boolean {
  const [start, end] = [text(period.start), text(period.end)];
  if (!start || !end) return false;
  if (start.length <= 10 || end.length <= 10) return start.slice(0, 10) > end.slice(0, 10);
  const [from, to] = [Date.parse(start), Date.parse(end)];
  return Number.isFinite(from) && Number.isFinite(to) && from > to;
}

const hasMockTag = (resource: unknown): boolean =>
  isObject(resource) &&
  isObject(resource.meta) &&
  list(resource.meta.tag).some((tag) => isObject(tag) && tag.system === MOCK_TAG.system && tag.code === MOCK_TAG.code);

/** The `$submit` body → the eligibility body and what the answer refers back to; INVALID_REQUEST listing every problem found. */
export function readEligibilityBundle(body: Json): Result<MappedRequest> {
  const found = findRequest(body);
  if (!found.ok) return invalid(found.problems);
  const { request, wrappers, resolve } = found.value;
  const at = request.path;
  const reader = new Reader(resolve);
  const resource = request.resource;

  const purpose = list(resource.purpose).filter((p): p is (typeof PURPOSES)[number] => PURPOSES.includes(p as (typeof PURPOSES)[number]));
  if (!purpose.includes('benefits') && !purpose.includes('validation')) reader.problem(`${at}.purpose`, 'must include benefits or validation');

  const patient = reader.entry(resource.patient, `${at}.patient`, ['Patient'], 'Patient');
  if (patient) {
    patientName(reader, patient);
    reader.date('patientDOB', patient.resource.birthDate, `${patient.path}.birthDate`);
  }
  const coverageReference = coverage(reader, request);
  const insurer = reader.identifier('payerId', INSURER_RULES, resource.insurer, `${at}.insurer`, ['Organization'], 'insurer Organization');
  const provider = reader.identifier(
    'providerId',
    PROVIDER_RULES,
    resource.provider,
    `${at}.provider`,
    ['Practitioner', 'PractitionerRole', 'Organization'],
    'provider',
  );
  const period = isObject(resource.servicedPeriod) ? resource.servicedPeriod : undefined;
  if (resource.servicedDate !== undefined || !period) reader.date('dateOfCoverage', resource.servicedDate, `${at}.servicedDate`);
  else if (periodReversed(period)) reader.problem(`${at}.servicedPeriod`, 'must not start after it ends (start is later than end)');
  else reader.date('dateOfCoverage', period.start, `${at}.servicedPeriod.start`);
  const procedures: Record<string, CodeableConcept> = {};
  items(reader, request, procedures);
  if ([resource, ...wrappers].some(hasMockTag)) reader.set('mockRequest', true, `${at}.meta.tag`);
  reader.errors.push(...unknownModifierExtensions([request, ...reader.read]));

  if (reader.errors.length > 0) return invalid(reader.errors);
  const id = text(resource.id);
  const requestReference = found.value.fullUrl ?? (id ? `CoverageEligibilityRequest/${id}` : undefined);
  const context: RequestContext = {
    request: requestReference ? { reference: requestReference } : { display: 'The submitted CoverageEligibilityRequest' },
    patient: cleanReference(resource.patient, 'Patient'),
    insurer: cleanReference(resource.insurer, 'insurer Organization', insurer),
    purpose,
    procedures,
  };
  if (isObject(resource.provider)) context.provider = cleanReference(resource.provider, 'provider', provider);
  if (coverageReference) context.coverage = cleanReference(coverageReference, 'Coverage');
  const identifiers: UsedIdentifiers = { ...(provider ? { provider } : {}), ...(insurer ? { insurer } : {}) };
  return ok({ body: reader.body, sources: reader.sources, context, identifiers, ...(provider?.kind === 'npi' ? { providerNpi: provider } : {}) });
}

function invalid(errors: FieldError[]): Result<never> {
  return fail(
    serviceError('INVALID_REQUEST', {
      message: `The body cannot be read as an eligibility request (${errors.length} problem${errors.length === 1 ? '' : 's'})`,
      errors,
    }),
  );
}

/**
 * The eligibility schema's problems, each named by the FHIR element the value came from
 * (`serviceTypeCodes[1]` → the item's category coding), dates described in FHIR's own form.
 */
export function locateProblems(errors: readonly FieldError[], sources: Record<string, string>): FieldError[] {
  return errors.map(({ field, message }) => ({
    field: sources[field] ?? sources[field.replace(/\[\d+\]$/, '')] ?? 'Bundle',
    message: message.replace('in the form MM-DD-YYYY', 'in the form YYYY-MM-DD'),
  }));
}
