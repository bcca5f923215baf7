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
import { MOCK_TAG, PROCEDURE_SYSTEMS, SYSTEMS } from './codes.js';

/**
 * Reads a `$submit` Bundle (docs/fhir.md#the-request) into the body of POST /api/eligibility/v1, and
 * remembers where each value came from (a FHIRPath-like expression) so that the eligibility schema's
 * problems can be reported at the FHIR element that holds the value. What cannot be mapped at all (no
 * CoverageEligibilityRequest first, a reference to nothing, a partial date) is a problem here, at once.
 */

type Json = Record<string, unknown>;

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
}

const FIRST = 'Bundle.entry[0].resource';
const PURPOSES = ['auth-requirements', 'benefits', 'discovery', 'validation'] as const;
const FHIR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** More items than this are refused on the count, before any is read: bounded work per request (docs/fhir.md#the-request). */
const MAX_ITEMS = 40;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A Bundle entry with where it sits. */
interface Located {
  resource: Json;
  path: string;
}

/** Resolves a reference against the Bundle: by fullUrl, by `Type/id`, or by an absolute URL ending in `Type/id`. */
function resolver(entries: unknown[]) {
  const byKey = new Map<string, Located>();
  entries.forEach((entry, index) => {
    if (!isObject(entry) || !isObject(entry.resource)) return;
    const located = { resource: entry.resource, path: `Bundle.entry[${index}].resource` };
    const type = text(entry.resource.resourceType);
    const id = text(entry.resource.id);
    if (typeof entry.fullUrl === 'string' && !byKey.has(entry.fullUrl)) byKey.set(entry.fullUrl, located);
    if (type && id && !byKey.has(`${type}/${id}`)) byKey.set(`${type}/${id}`, located);
  });
  return (reference: string): Located | undefined => {
    const direct = byKey.get(reference);
    if (direct) return direct;
    const tail = /([A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(\/_history\/[^/]+)?$/.exec(reference);
    return tail ? byKey.get(String(tail[1])) : undefined;
  };
}

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
  constructor(private readonly resolve: (reference: string) => Located | undefined) {}

  problem(field: string, message: string): undefined {
    this.errors.push({ field, message });
    return undefined;
  }

  set(field: string, value: unknown, source: string): void {
    if (value !== undefined) this.body[field] = value;
    this.sources[field] = source;
  }

  /** The entry a Reference points at, of one of the given types. */
  entry(reference: unknown, path: string, types: readonly string[], what: string): Located | undefined {
    const target = isObject(reference) ? text(reference.reference) : undefined;
    if (!target) return this.problem(path, `is required: a reference to the ${what} entry of the Bundle`);
    const found = this.resolve(target);
    if (!found)
      return this.problem(
        `${path}.reference`,
        `must point at an entry of the Bundle (by fullUrl or Type/id); nothing matches ${JSON.stringify(target.slice(0, 100))}`,
      );
    if (!types.includes(String(found.resource.resourceType)))
      return this.problem(`${path}.reference`, `must point at a resource of type ${types.join(' or ')}`);
    return found;
  }

  /**
   * An identifier value: the referenced entry's first `identifier` with a value, or the Reference's own
   * `identifier` (a logical reference, no entry needed).
   */
  identifier(field: string, reference: unknown, path: string, types: readonly string[], what: string): void {
    const logical = isObject(reference) && isObject(reference.identifier) && reference.reference === undefined ? reference.identifier : undefined;
    if (logical) {
      this.set(field, logical.value, `${path}.identifier.value`);
      return;
    }
    const found = this.entry(reference, path, types, what);
    if (!found) return;
    const identifiers = list(found.resource.identifier);
    const index = identifiers.findIndex((item) => isObject(item) && item.value !== undefined);
    if (index < 0) this.set(field, undefined, `${found.path}.identifier`);
    else this.set(field, (identifiers[index] as Json).value, `${found.path}.identifier[${index}].value`);
  }

  date(field: string, value: unknown, source: string): void {
    const us = typeof value === 'string' ? fhirDateToUs(value) : undefined;
    if (value !== undefined && !us) this.problem(source, 'must be a full date in the form YYYY-MM-DD that exists on the calendar');
    else this.set(field, us, source);
  }
}

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

/** The insurance to check: the one marked `focal`, else the first. */
function coverage(reader: Reader, request: Json): unknown {
  const insurance = list(request.insurance);
  if (insurance.length === 0) return reader.problem(`${FIRST}.insurance`, 'is required: the Coverage to check (its subscriberId is the member id)');
  const index = Math.max(
    0,
    insurance.findIndex((item) => isObject(item) && item.focal === true),
  );
  const item = insurance[index];
  const path = `${FIRST}.insurance[${index}].coverage`;
  const found = reader.entry(isObject(item) ? item.coverage : undefined, path, ['Coverage'], 'Coverage');
  if (!found) return undefined;
  reader.set('patientMemberId', found.resource.subscriberId, `${found.path}.subscriberId`);
  return (item as Json).coverage;
}

/** item[].category (X12 service types) and item[].productOrService (CPT, HCPCS, CDT). */
function items(reader: Reader, request: Json, procedures: Record<string, CodeableConcept>): void {
  const serviceTypes: string[] = [];
  const procedureCodes: string[] = [];
  const seen = new Set<string>();
  const add = (into: string[], field: string, code: unknown, source: string) => {
    if (typeof code === 'string' && seen.has(`${field}|${code}`)) return;
    if (typeof code === 'string') seen.add(`${field}|${code}`);
    reader.sources[`${field}[${into.length}]`] = source;
    into.push(code as string);
  };
  const all = list(request.item);
  if (all.length > MAX_ITEMS) {
    reader.problem(`${FIRST}.item`, `must list at most ${MAX_ITEMS} items (each names one service type and/or one procedure; at most 10 of each are checked)`);
    return;
  }
  for (const [i, item] of all.entries()) {
    const path = `${FIRST}.item[${i}]`;
    if (!isObject(item) || (item.category === undefined && item.productOrService === undefined)) {
      reader.problem(path, 'must have a category (an X12 service type) or a productOrService (a CPT, HCPCS or CDT code)');
      continue;
    }
    if (item.category !== undefined) {
      const codings = isObject(item.category) ? list(item.category.coding) : [];
      const j = codings.findIndex((c) => isObject(c) && c.system === SYSTEMS.x12ServiceType);
      if (j < 0) reader.problem(`${path}.category`, `must have a coding from ${SYSTEMS.x12ServiceType} (X12 service type codes)`);
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
  if (serviceTypes.length > 0) reader.set('serviceTypeCodes', serviceTypes, `${FIRST}.item`);
  if (procedureCodes.length > 0) reader.set('procedureCodes', procedureCodes, `${FIRST}.item`);
}

/** A caller's Reference reduced to its plain strings, so the answer never echoes an element it did not check. */
function cleanReference<T extends Resource>(value: unknown): Reference<T> {
  const source = isObject(value) ? value : {};
  const reference: Reference<T> = {};
  if (typeof source.reference === 'string') reference.reference = source.reference;
  if (isObject(source.identifier)) {
    const { system, value: idValue } = source.identifier;
    reference.identifier = { ...(typeof system === 'string' ? { system } : {}), ...(typeof idValue === 'string' ? { value: idValue } : {}) };
  }
  if (typeof source.display === 'string') reference.display = source.display;
  return reference;
}

const hasMockTag = (resource: unknown): boolean =>
  isObject(resource) &&
  isObject(resource.meta) &&
  list(resource.meta.tag).some((tag) => isObject(tag) && tag.system === MOCK_TAG.system && tag.code === MOCK_TAG.code);

/** The Bundle → the eligibility body and what the answer refers back to; INVALID_REQUEST listing every problem found. */
export function readEligibilityBundle(bundle: Json): Result<MappedRequest> {
  const entries = list(bundle.entry);
  const reader = new Reader(resolver(entries));
  const first = entries[0];
  const request = isObject(first) && isObject(first.resource) ? first.resource : undefined;
  if (request?.resourceType !== 'CoverageEligibilityRequest') {
    return invalid([{ field: FIRST, message: 'must be a CoverageEligibilityRequest (the first entry is what is asked)' }]);
  }

  const purpose = list(request.purpose).filter((p): p is (typeof PURPOSES)[number] => PURPOSES.includes(p as (typeof PURPOSES)[number]));
  if (!purpose.includes('benefits') && !purpose.includes('validation')) reader.problem(`${FIRST}.purpose`, 'must include benefits or validation');

  const patient = reader.entry(request.patient, `${FIRST}.patient`, ['Patient'], 'Patient');
  if (patient) {
    patientName(reader, patient);
    reader.date('patientDOB', patient.resource.birthDate, `${patient.path}.birthDate`);
  }
  const coverageReference = coverage(reader, request);
  reader.identifier('payerId', request.insurer, `${FIRST}.insurer`, ['Organization'], 'insurer Organization');
  reader.identifier('providerId', request.provider, `${FIRST}.provider`, ['Practitioner', 'PractitionerRole', 'Organization'], 'provider');
  const period = isObject(request.servicedPeriod) ? request.servicedPeriod : undefined;
  if (request.servicedDate !== undefined || !period) reader.date('dateOfCoverage', request.servicedDate, `${FIRST}.servicedDate`);
  else reader.date('dateOfCoverage', period.start, `${FIRST}.servicedPeriod.start`);
  const procedures: Record<string, CodeableConcept> = {};
  items(reader, request, procedures);
  if (hasMockTag(request) || hasMockTag(bundle)) reader.set('mockRequest', true, `${FIRST}.meta.tag`);

  if (reader.errors.length > 0) return invalid(reader.errors);
  const fullUrl = isObject(first) ? text(first.fullUrl) : undefined;
  const id = text(request.id);
  const requestReference = fullUrl ?? (id ? `CoverageEligibilityRequest/${id}` : undefined);
  const context: RequestContext = {
    request: requestReference ? { reference: requestReference } : { display: 'The submitted CoverageEligibilityRequest' },
    patient: cleanReference(request.patient),
    insurer: cleanReference(request.insurer),
    purpose,
    procedures,
  };
  if (isObject(request.provider)) context.provider = cleanReference(request.provider);
  if (coverageReference) context.coverage = cleanReference(coverageReference);
  return ok({ body: reader.body, sources: reader.sources, context });
}

function invalid(errors: FieldError[]): Result<never> {
  return fail(
    serviceError('INVALID_REQUEST', {
      message: `The Bundle cannot be read as an eligibility request (${errors.length} problem${errors.length === 1 ? '' : 's'})`,
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
