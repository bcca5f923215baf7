import { stringify } from 'csv-stringify/sync';
import type { BatchStore } from './store.js';
import type { BatchRecord, ItemRecord } from './types.js';
import { viewState } from './views.js';

/**
 * A batch's results as CSV (docs/batch.md#results-as-csv): one row per item in index order with the
 * item's state and status, the coverage status, the 24 summary slots as columns named like
 * `inNetwork.individual.copay`, the estimate's totals, and the error's code and a message that names the
 * fields refused or the payer's AAA reasons. A `clientRef` comes back as given, line breaks and tabs
 * included, in one quoted cell. Written by
 * csv-stringify (RFC 4180 quoting, CRLF) behind a UTF-8 byte-order mark so spreadsheets read it as
 * UTF-8; produced page by page, so memory stays flat however large the batch.
 *
 * The columns are the same for every batch (the estimate's are empty for an item that asked for none),
 * so a sheet or an import mapping made for one batch fits the next. The cells that can carry caller
 * input (clientRef, the error's code and message: messages echo it) are prefixed with `'` when a
 * spreadsheet would read them as a formula (they begin with `=`, `+`, `-`, `@`, a tab or a carriage
 * return; OWASP, CSV injection). Figures are the service's own and stay exactly as the JSON answer
 * has them, a payer's negative amount (`-$25.00`) included.
 */

const NETWORKS = ['inNetwork', 'outNetwork'] as const;
const LEVELS = ['individual', 'family'] as const;
const FIGURES = ['copay', 'deductible.total', 'deductible.remaining', 'coinsurance', 'stopLoss', 'stopLossRemaining'] as const;

const SLOT_COLUMNS: readonly string[] = NETWORKS.flatMap((network) => LEVELS.flatMap((level) => FIGURES.map((figure) => `${network}.${level}.${figure}`)));
/**
 * The estimate's totals (docs/eligibility.md#estimate): what the patient owes, what the plan pays, whether
 * every figure was known, and what its lines miss (each name once, in the order the lines give them, `;` between).
 */
const ESTIMATE_COLUMNS: readonly string[] = ['estimate.patientOwes', 'estimate.planPays', 'estimate.complete', 'estimate.missing'];
/** The COB part of an item that asked `runCobCheck`: its COB code, or the code of its failure. */
const COB_COLUMNS: readonly string[] = ['cob.cobCode', 'cob.error'];
export const CSV_COLUMNS: readonly string[] = [
  'index',
  'clientRef',
  'state',
  'status',
  'coverageStatus',
  ...SLOT_COLUMNS,
  ...ESTIMATE_COLUMNS,
  ...COB_COLUMNS,
  'errorCode',
  'errorMessage',
];

const PAGE = 500;
const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet shows as text, never runs as a formula. */
const inertCell = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

function at(value: unknown, path: string): string {
  let current = value;
  for (const key of path.split('.')) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return typeof current === 'string' || typeof current === 'number' || typeof current === 'boolean' ? String(current) : '';
}

/** An estimate column's cell: `estimate.missing` gathers the lines' `missing`; the others are the answer's values. */
function estimateCell(body: unknown, column: string): string {
  if (column !== 'estimate.missing') return at(body, column);
  const estimate = typeof body === 'object' && body !== null ? (body as { estimate?: { lines?: { missing?: unknown }[] } }).estimate : undefined;
  const named = new Set<string>();
  for (const line of estimate?.lines ?? []) if (Array.isArray(line.missing)) for (const figure of line.missing) named.add(String(figure));
  return [...named].join(';');
}

interface ErrorParts {
  message?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
  errorsTruncated?: unknown;
  rejections?: Array<{ code?: unknown; description?: unknown; loop?: unknown }>;
}

/**
 * An error's cell in words that stand alone (docs/batch.md#results-as-csv): the fields a refused item
 * got wrong (`patientDOB: must be …; …`), or the payer's AAA reasons (`AAA 72 Invalid/Missing
 * Subscriber/Insured ID (loop 2100C)`), else the error's message.
 */
export function errorText(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const { message, errors, errorsTruncated, rejections } = body as ErrorParts;
  if (Array.isArray(errors) && errors.length > 0) {
    const named = errors.map((error) => `${String(error.field)}: ${String(error.message)}`);
    return [...named, ...(errorsTruncated === true ? ['and more problems'] : [])].join('; ');
  }
  if (Array.isArray(rejections) && rejections.length > 0) {
    return rejections
      .map(({ code, description, loop }) =>
        [`AAA ${String(code)}`, ...(description ? [String(description)] : []), ...(loop ? [`(loop ${String(loop)})`] : [])].join(' '),
      )
      .join('; ');
  }
  return typeof message === 'string' ? message : '';
}

function csvRow(batch: BatchRecord, item: ItemRecord): string[] {
  const body = item.answer === undefined ? undefined : (JSON.parse(item.answer) as Record<string, unknown>);
  const ok = item.status !== undefined && item.status < 400;
  return [
    String(item.index),
    inertCell(item.clientRef ?? ''),
    viewState(batch, item),
    item.status === undefined ? '' : String(item.status),
    ok ? at(body, 'coverageStatus') : '',
    ...SLOT_COLUMNS.map((column) => (ok ? at(body, column) : '')),
    ...ESTIMATE_COLUMNS.map((column) => (ok ? estimateCell(body, column) : '')),
    ok ? at(body, 'cob.cobCode') : '',
    ok ? at(body, 'cob.code') : '',
    inertCell(ok ? '' : at(body, 'code')),
    inertCell(ok ? '' : errorText(body)),
  ];
}

/** The CSV text in chunks: the header, then one chunk per page of items. */
export async function* batchCsv(store: BatchStore, batch: BatchRecord): AsyncGenerator<string> {
  yield BOM + stringify([CSV_COLUMNS as string[]], { record_delimiter: 'windows' });
  let afterIndex: number | undefined;
  for (;;) {
    const page = await store.listItems(batch.batchId, { limit: PAGE, ...(afterIndex === undefined ? {} : { afterIndex }) });
    if (page.items.length > 0)
      yield stringify(
        page.items.map((item) => csvRow(batch, item)),
        { record_delimiter: 'windows' },
      );
    if (page.lastIndex === undefined) return;
    afterIndex = page.lastIndex;
  }
}
