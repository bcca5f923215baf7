import type { FieldError } from '../errors/index.js';
import { KNOWN_MODIFIER_EXTENSIONS } from './codes.js';

/**
 * The shapes a `$submit` body comes in (docs/fhir.md#the-request): a Bundle holding the
 * CoverageEligibilityRequest in any entry, a bare CoverageEligibilityRequest whose Patient, Coverage and
 * Organizations are `contained`, or a `Parameters` whose `resource` parameter holds either. Finds the
 * request, resolves its references (Bundle entries and `#id` of its contained resources), and refuses
 * modifier extensions this service does not know. Every location is a FHIRPath-like expression from the
 * body's root (`Parameters.parameter[0].resource.entry[2].resource`).
 */

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A resource with where it sits. */
export interface Located {
  resource: Json;
  path: string;
}

export interface FoundRequest {
  /** The CoverageEligibilityRequest. */
  request: Located;
  /** The `fullUrl` of its Bundle entry, when it has one. */
  fullUrl?: string;
  /** The resources around the request (Bundle, Parameters): a mock tag on them counts. */
  wrappers: Json[];
  /** A reference → the Bundle entry or contained resource it names. */
  resolve(reference: string): Located | undefined;
}

export type Found = { ok: true; value: FoundRequest } | { ok: false; problems: FieldError[] };

/** More than this many entries, contained resources or parameters are refused on the count (bounded work). */
export const MAX_RESOURCES = 50;

const REQUEST = 'CoverageEligibilityRequest';
const problem = (field: string, message: string): Found => ({ ok: false, problems: [{ field, message }] });

/** Resolves a reference: `#id` against the request's contained resources; else by fullUrl, `Type/id`, or an absolute URL ending in `Type/id`. */
function resolver(entries: unknown[], entriesPath: string, request: Located) {
  const byKey = new Map<string, Located>();
  list(request.resource.contained).forEach((resource, index) => {
    const id = isObject(resource) ? text(resource.id) : undefined;
    if (id && !byKey.has(`#${id}`)) byKey.set(`#${id}`, { resource: resource as Json, path: `${request.path}.contained[${index}]` });
  });
  entries.forEach((entry, index) => {
    if (!isObject(entry) || !isObject(entry.resource)) return;
    const located = { resource: entry.resource, path: `${entriesPath}[${index}].resource` };
    const type = text(entry.resource.resourceType);
    const id = text(entry.resource.id);
    if (typeof entry.fullUrl === 'string' && !byKey.has(entry.fullUrl)) byKey.set(entry.fullUrl, located);
    if (type && id && !byKey.has(`${type}/${id}`)) byKey.set(`${type}/${id}`, located);
  });
  return (reference: string): Located | undefined => {
    const direct = byKey.get(reference);
    if (direct || reference.startsWith('#')) return direct;
    const tail = /([A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(\/_history\/[^/]+)?$/.exec(reference);
    return tail ? byKey.get(String(tail[1])) : undefined;
  };
}

function bare(resource: Json, path: string, wrappers: Json[], entries: unknown[] = [], entriesPath = '', fullUrl?: string): Found {
  if (list(resource.contained).length > MAX_RESOURCES) return problem(`${path}.contained`, `must hold at most ${MAX_RESOURCES} resources`);
  const request = { resource, path };
  return { ok: true, value: { request, wrappers, resolve: resolver(entries, entriesPath, request), ...(fullUrl ? { fullUrl } : {}) } };
}

function bundle(resource: Json, path: string, wrappers: Json[]): Found {
  const entries = list(resource.entry);
  if (entries.length === 0 || entries.length > MAX_RESOURCES) return problem(`${path}.entry`, `must list 1 to ${MAX_RESOURCES} Bundle entries`);
  const requests = entries.flatMap((entry, index) => (isObject(entry) && isObject(entry.resource) && entry.resource.resourceType === REQUEST ? [index] : []));
  if (requests.length === 0) return problem(`${path}.entry`, `must hold a ${REQUEST} (the request to check) in one of its entries`);
  if (requests.length > 1) return problem(`${path}.entry`, `must hold one ${REQUEST}; entries ${requests.join(', ')} are all requests`);
  const index = requests[0] as number;
  const entry = entries[index] as Json;
  return bare(entry.resource as Json, `${path}.entry[${index}].resource`, [...wrappers, resource], entries, `${path}.entry`, text(entry.fullUrl));
}

function parameters(resource: Json, path: string, wrappers: Json[]): Found {
  const all = list(resource.parameter);
  if (all.length > MAX_RESOURCES) return problem(`${path}.parameter`, `must list at most ${MAX_RESOURCES} parameters`);
  const index = all.findIndex((p) => isObject(p) && p.name === 'resource' && isObject(p.resource));
  if (index < 0) return problem(`${path}.parameter`, `must have a parameter named "resource" holding the Bundle or the ${REQUEST}`);
  const inner = (all[index] as Json).resource as Json;
  const innerPath = `${path}.parameter[${index}].resource`;
  const read = INNER[String(inner.resourceType)];
  return read ? read(inner, innerPath, [...wrappers, resource]) : problem(`${innerPath}.resourceType`, `must be "Bundle" or "${REQUEST}"`);
}

type Reader = (resource: Json, path: string, wrappers: Json[]) => Found;
/** What a Parameters' `resource` may hold. */
const INNER: Record<string, Reader> = { Bundle: bundle, [REQUEST]: (resource, path, wrappers) => bare(resource, path, wrappers) };
/** What the body may be. */
const ROOTS: Record<string, Reader> = { ...INNER, Parameters: parameters };

/** The CoverageEligibilityRequest of a `$submit` body, or where the body is not one of the accepted shapes. */
export function findRequest(body: Json): Found {
  const type = String(body.resourceType);
  const read = ROOTS[type];
  if (!read) return problem('resourceType', `must be "Bundle", "${REQUEST}" or "Parameters"`);
  return read(body, type, []);
}

/**
 * Every modifierExtension in these resources (and their contained ones) whose url this service does not
 * know, as a problem naming the url (FHIR: a reader must refuse what it cannot interpret). Walked
 * without recursion, so a deeply nested body costs a loop, not the stack.
 */
export function unknownModifierExtensions(resources: readonly Located[]): FieldError[] {
  const problems: FieldError[] = [];
  const stack: [unknown, string][] = resources.map(({ resource, path }) => [resource, path]);
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push([item, `${path}[${i}]`]);
      continue;
    }
    if (!isObject(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'modifierExtension') {
        stack.push([child, `${path}.${key}`]);
        continue;
      }
      list(child).forEach((extension, i) => {
        const url = isObject(extension) ? text(extension.url) : undefined;
        if (url !== undefined && KNOWN_MODIFIER_EXTENSIONS.has(url)) return;
        problems.push({
          field: `${path}.modifierExtension[${i}]`,
          message: `is a modifier extension this service does not know (${JSON.stringify((url ?? '(no url)').slice(0, 200))}); FHIR requires refusing a resource whose meaning it may change`,
        });
      });
    }
  }
  // A contained resource is walked with its request and again on its own: each place is named once.
  const unique = new Map(problems.map((p) => [p.field, p]));
  return [...unique.values()].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}
