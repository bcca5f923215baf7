import { stringify } from 'csv-stringify/sync';
import type { BatchStore } from './store.js';
import type { BatchRecord, ItemRecord } from './types.js';
import { viewState } from './views.js';

/**
 * A batch's results as CSV (docs/batch.md#results-as-csv): one row per item in index order with the
 * item's state and status, the coverage status, the 24 summary slots as columns named like
 * `inNetwork.individual.copay`, and the error's code and message. Written by csv-stringify (RFC 4180
 * quoting, CRLF) behind a UTF-8 byte-order mark so spreadsheets read it as UTF-8; produced page by
 * page, so memory stays flat however large the batch.
 */

const NETWORKS = ['inNetwork', 'outNetwork'] as const;
const LEVELS = ['individual', 'family'] as const;
const FIGURES = ['copay', 'deductible.total', 'deductible.remaining', 'coinsurance', 'stopLoss', 'stopLossRemaining'] as const;

export const SLOT_COLUMNS: readonly string[] = NETWORKS.flatMap((network) =>
  LEVELS.flatMap((level) => FIGURES.map((figure) => `${network}.${level}.${figure}`)),
);
export const CSV_COLUMNS: readonly string[] = ['index', 'clientRef', 'state', 'status', 'coverageStatus', ...SLOT_COLUMNS, 'errorCode', 'errorMessage'];

const PAGE = 500;
const BOM = '\uFEFF';

function at(value: unknown, path: string): string {
  let current = value;
  for (const key of path.split('.')) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return typeof current === 'string' || typeof current === 'number' ? String(current) : '';
}

export function csvRow(batch: BatchRecord, item: ItemRecord): string[] {
  const body = item.answer === undefined ? undefined : (JSON.parse(item.answer) as Record<string, unknown>);
  const ok = item.status !== undefined && item.status < 400;
  return [
    String(item.index),
    item.clientRef ?? '',
    viewState(batch, item),
    item.status === undefined ? '' : String(item.status),
    ok ? at(body, 'coverageStatus') : '',
    ...SLOT_COLUMNS.map((column) => (ok ? at(body, column) : '')),
    ok ? '' : at(body, 'code'),
    ok ? '' : at(body, 'message'),
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
