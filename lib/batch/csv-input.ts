import { parse } from 'csv-parse/sync';
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { SCHEMAS } from '../validation/index.js';

/**
 * A batch sent as CSV (docs/batch.md#csv): RFC 4180 read by csv-parse (quotes, embedded commas and
 * line breaks, CRLF, a UTF-8 byte-order mark), never by splitting on commas. The header row names
 * request fields and `clientRef`; list fields (`serviceTypeCodes`, `procedureCodes`) hold values
 * separated by `;`; booleans are `true` or `false`; an empty cell leaves the field out. Values are
 * then validated like any JSON item, so a bad cell is that item's 400, never the batch's.
 *
 * Parsing stops at the row after the most a batch may hold (csv-parse's own record counter, `to`):
 * a body of a million short rows costs what 10,001 rows cost, and the batch is refused for its count.
 */

type PropertyType = 'string' | 'boolean' | 'array' | 'other';

function typesOfFields(): Map<string, PropertyType> {
  const properties = (SCHEMAS.eligibility as { properties: Record<string, { type?: unknown }> }).properties;
  const types = new Map<string, PropertyType>();
  for (const [field, schema] of Object.entries(properties)) {
    const type = schema.type;
    types.set(field, type === 'string' || type === 'boolean' || type === 'array' ? type : 'other');
  }
  types.set('clientRef', 'string');
  return types;
}

function cellValue(type: PropertyType | undefined, cell: string): unknown {
  if (type === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : cell;
  if (type === 'array')
    return cell
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  if (type === 'other') {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      return cell;
    }
  }
  return cell;
}

const unreadable = (message: string) =>
  fail<never>(
    serviceError('INVALID_REQUEST', {
      message: `The body is not readable CSV: ${message}`,
      errors: [{ field: '(body)', message: 'must be CSV with a header row naming request fields' }],
    }),
  );

/**
 * The CSV's rows as eligibility request bodies (with `clientRef`), in row order: at most `maxItems + 1`
 * of them (one more than a batch may hold, so the envelope refuses the count), the rest never parsed.
 */
export function itemsFromCsv(text: string, maxItems: number): Result<Record<string, unknown>[]> {
  let rows: string[][];
  try {
    // `to` counts records, the header row included: the header and maxItems + 1 rows.
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, max_record_size: 64 * 1024, to: maxItems + 2 }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return unreadable(line ? `the row ending on line ${line} does not fit the header` : 'it could not be parsed');
  }
  const [header, ...records] = rows;
  if (!header) return unreadable('it has no header row');
  const names = header.map((name) => name.trim());
  if (new Set(names).size !== names.length) return unreadable('a column is named twice in the header row');
  const types = typesOfFields();
  return ok(
    records.map((record) => {
      const item: Record<string, unknown> = {};
      names.forEach((name, i) => {
        const cell = record[i] ?? '';
        if (cell !== '') item[name] = cellValue(types.get(name), cell);
      });
      return item;
    }),
  );
}
