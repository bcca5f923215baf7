import { MAX_LISTED_ERRORS } from '../errors/index.js';

/**
 * Bounded validation work (docs/security.md#bounded-work): before the compiled validator looks at a
 * body item by item, every list longer than its schema's `maxItems` is cut to `maxItems + 1` items
 * and every object with more unknown keys than can be listed keeps only `MAX_LISTED_ERRORS + 1` of
 * them. The validator still sees each limit broken (and says so, or sets `errorsTruncated`), but a
 * 2.9-million-item list costs eleven items' work, not 2.9 million. The cut happens on a copy; a
 * body within every limit is returned as it is.
 *
 * Only the keywords the request schemas use are followed (properties, items); a test checks that
 * every list in them has a `maxItems`.
 */

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean;
  items?: SchemaNode;
  maxItems?: number;
  /** Any other keyword (const, pattern…): not read here. */
  const?: unknown;
}

export function withinBounds(schema: SchemaNode, value: unknown): unknown {
  if (Array.isArray(value)) return schema.type === 'array' ? boundedList(schema, value) : value;
  if (typeof value === 'object' && value !== null && schema.properties) return boundedObject(schema, value as Record<string, unknown>);
  return value;
}

function boundedList(schema: SchemaNode, list: unknown[]): unknown[] {
  // Reads at most maxItems + 1 items of a longer list: its length alone breaks the limit.
  const kept = schema.maxItems !== undefined && list.length > schema.maxItems + 1 ? list.slice(0, schema.maxItems + 1) : list;
  if (!schema.items) return kept;
  const items = schema.items;
  let changed = kept !== list;
  const bounded = kept.map((item) => {
    const cut = withinBounds(items, item);
    if (cut !== item) changed = true;
    return cut;
  });
  return changed ? bounded : list;
}

function boundedObject(schema: SchemaNode, object: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties!;
  const out: Record<string, unknown> = {};
  let changed = false;
  let unknown = 0;
  for (const key of Object.keys(object)) {
    const known = Object.hasOwn(properties, key);
    if (!known && schema.additionalProperties === false && ++unknown > MAX_LISTED_ERRORS + 1) {
      changed = true;
      continue;
    }
    const value = known ? withinBounds(properties[key]!, object[key]) : object[key];
    if (value !== object[key]) changed = true;
    // defineProperty: a key "__proto__" stays an own data property of the copy, as in the parsed body.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return changed ? out : object;
}
