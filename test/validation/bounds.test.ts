import { describe, expect, it } from '@jest/globals';
import { MAX_LISTED_ERRORS } from '../../lib/errors/index.js';
import { withinBounds } from '../../lib/validation/bounds.js';
import { validateBody } from '../../lib/validation/index.js';
import { SCHEMAS, type SchemaName } from '../../lib/validation/schemas.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * Bounded validation work (docs/security.md#bounded-work): a list of millions of items is refused on
 * its length before any item is looked at. Each huge list here is a Proxy that counts how many of
 * its items are read, so the test measures work, not time.
 */

const eligibility = { ...MOCK_SET_1 };
const cob = { patientFirstName: 'Ana', patientLastName: 'Ruiz', dateOfCoverage: '06-01-2025', payerId: 'AETNA', providerId: 'PROV-1' };

/** A list of `length` copies of `item` that counts reads of its items (and holds none in memory). */
function countingList(length: number, item: unknown): { list: unknown[]; reads: () => number } {
  let reads = 0;
  const isIndex = (key: string | symbol) => typeof key === 'string' && /^\d+$/.test(key) && Number(key) < length;
  const list = new Proxy(new Array(length), {
    get(target, key, receiver) {
      if (isIndex(key)) {
        reads += 1;
        return item;
      }
      return Reflect.get(target, key, receiver);
    },
    has: (target, key) => isIndex(key) || Reflect.has(target, key),
  });
  return { list, reads: () => reads };
}

const ITEMS = 2_900_000;

describe('a list of 2.9 million items', () => {
  it.each([
    ['eligibility', 'serviceTypeCodes', eligibility, 'must list at most 10 service type codes'],
    ['eligibility', 'procedureCodes', eligibility, 'must list at most 10 procedure codes'],
    ['cob', 'serviceTypeCodes', cob, 'must list at most 10 service type codes'],
  ] as const)('%s %s: refused on its length, reading at most maxItems + 1 items', (name, field, body, message) => {
    const { list, reads } = countingList(ITEMS, 1);
    const result = validateBody(name as SchemaName, { ...body, [field]: list });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.errors![0]).toEqual({ field, message });
    // The items read are the 11 a length check keeps (10 allowed + 1), never the 2.9 million.
    expect(reads()).toBeLessThanOrEqual(11);
    expect(result.error.errors!.length).toBeLessThanOrEqual(12);
    expect(result.error.errorsTruncated).toBeUndefined();
  });

  it('of valid, repeated codes: still refused on its length alone', () => {
    const { list, reads } = countingList(ITEMS, '30');
    const result = validateBody('eligibility', { ...eligibility, serviceTypeCodes: list });
    // One message per field: the length, which comes before the repeats.
    expect(result.ok ? [] : result.error.errors).toEqual([{ field: 'serviceTypeCodes', message: 'must list at most 10 service type codes' }]);
    expect(reads()).toBeLessThanOrEqual(11);
  });
});

describe('withinBounds', () => {
  it('returns a body within every limit as it is (no copy)', () => {
    const body = { ...eligibility, serviceTypeCodes: ['30', '98'], procedureCodes: ['99213'] };
    expect(withinBounds(SCHEMAS.eligibility, body)).toBe(body);
  });

  it('keeps 51 of 100,000 unknown keys, so the answer lists 50 and says it was cut', () => {
    const keys = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const body = { ...eligibility, ...keys };
    const bounded = withinBounds(SCHEMAS.eligibility, body) as Record<string, unknown>;
    expect(Object.keys(bounded)).toHaveLength(Object.keys(eligibility).length + MAX_LISTED_ERRORS + 1);
    const result = validateBody('eligibility', body);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(result.error.errorsTruncated).toBe(true);
    expect(result.error.message).toBe(`The request body is invalid (more than ${MAX_LISTED_ERRORS} problems)`);
  });

  it('keeps "__proto__" an own field of the copy, so it is still named as unknown', () => {
    const body = JSON.parse(`{"__proto__": 1, ${Array.from({ length: 60 }, (_, i) => `"k${i}": 1`).join(', ')}}`) as Record<string, unknown>;
    const bounded = withinBounds(SCHEMAS.eligibility, body) as Record<string, unknown>;
    expect(Object.hasOwn(bounded, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(bounded)).toBe(Object.prototype);
  });

  it('has a limit to cut at: every list in every request schema has maxItems', () => {
    const lists: string[] = [];
    const walk = (schema: unknown, path: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const node = schema as { type?: string; maxItems?: number; properties?: Record<string, unknown>; items?: unknown };
      if (node.type === 'array') lists.push(`${path}:${node.maxItems ?? 'none'}`);
      for (const [key, sub] of Object.entries(node.properties ?? {})) walk(sub, `${path}.${key}`);
      if (node.items) walk(node.items, `${path}[]`);
    };
    for (const [name, schema] of Object.entries(SCHEMAS)) walk(schema, name);
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.filter((entry) => entry.endsWith(':none'))).toEqual([]);
  });
});
