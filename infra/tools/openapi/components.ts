import { FORMATS, patternRule } from '../../../lib/validation/index.js';

/**
 * From JSON Schemas to the OpenAPI document's components (document.ts): every titled schema becomes a
 * component, referenced by `$ref` wherever the same object appears, and custom formats and patterns are
 * described in words.
 */

type Json = Record<string, unknown>;

/** A `$ref` to a schema component. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A `$ref` to a header component. */
export const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Message openings → the start of a description ("must be a real date…" → "A real date…"). */
const OPENINGS: Array<[RegExp, string]> = [
  [/^must not be /, 'Not '],
  [/^must be /, ''],
  [/^must not contain /, 'Contains no '],
  [/^must contain /, 'Contains '],
];

/** "must be a real calendar date…" → "A real calendar date…." */
function sentence(message: string): string {
  const [opening, replacement] = OPENINGS.find(([re]) => re.test(message)) ?? [/^/, ''];
  return `${message.replace(opening, replacement)}.`.replace(/^./, (c) => c.toUpperCase());
}

/**
 * Rewrites a validator schema for the document: drops `$id`, describes custom formats in words,
 * and replaces every sub-schema that is a named component (same object, matched by identity) by a `$ref`.
 */
export function documentSchema(schema: unknown, components: Map<unknown, string>, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => documentSchema(item, components, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const named = components.get(schema);
  if (named && !root) return { $ref: `#/components/schemas/${named}` };
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    if (key === 'properties' || key === 'dependentRequired' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, sub]) => [name, key === 'dependentRequired' ? sub : documentSchema(sub, components, false)]),
      );
    } else {
      out[key] = typeof value === 'object' ? documentSchema(value, components, false) : value;
    }
  }
  // A custom format is described in words; every constraint the validator holds is in the schema
  // itself, so the document adds none of its own (test/openapi/validators.test.ts compares them).
  const { format, pattern } = schema as Json;
  const formatRule = typeof format === 'string' && FORMATS[format] ? sentence(FORMATS[format].message) : undefined;
  const patternText = typeof pattern === 'string' ? patternRule(pattern) : undefined;
  const patternSentence = patternText ? sentence(patternText) : undefined;
  const rules = [formatRule, patternSentence && !formatRule?.startsWith(patternSentence.slice(0, -1)) ? patternSentence : undefined].filter(Boolean);
  if (rules.length > 0) out.description ??= rules.join(' ');
  return out;
}

/** Every object schema with a `title` becomes a component (first seen wins; titles are unique). */
export function collectComponents(roots: Record<string, unknown>): Map<unknown, string> {
  const components = new Map<unknown, string>();
  const seen = new Set<unknown>();
  const walk = (schema: unknown, name?: string) => {
    if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
    seen.add(schema);
    const title = name ?? (schema as Json).title;
    if (typeof title === 'string' && !Array.isArray(schema)) {
      if ([...components.values()].includes(title)) throw new Error(`two different schemas are titled ${title}`);
      components.set(schema, title);
    }
    for (const value of Object.values(schema)) walk(value);
  };
  for (const [name, schema] of Object.entries(roots)) walk(schema, name);
  return components;
}
