import { describe, expect, it } from '@jest/globals';
import { CSV_COLUMNS, csvRow, inertCell } from '../../lib/batch/csv-output.js';
import { emptyCounts, emptyOutcomes, type BatchRecord, type ItemRecord } from '../../lib/batch/types.js';

/** One results row as a pure function: estimate totals and cells a spreadsheet must not run as formulas. */

const BATCH: BatchRecord = {
  batchId: 'b',
  clientId: 'c',
  status: 'COMPLETED',
  totalCount: 2,
  invalidCount: 0,
  counts: emptyCounts(),
  outcomes: emptyOutcomes(),
  createdAt: '2026-11-25T00:00:00.000Z',
  updatedAt: '2026-11-25T00:00:00.000Z',
};
const item = (status: number, answer: unknown, clientRef?: string): ItemRecord => ({
  batchId: 'b',
  index: 0,
  state: status < 400 ? 'COMPLETED' : 'FAILED',
  attempts: 1,
  counted: false,
  status,
  answer: JSON.stringify(answer),
  ...(clientRef === undefined ? {} : { clientRef }),
});
const cells = (record: ItemRecord) => Object.fromEntries(CSV_COLUMNS.map((name, i) => [name, csvRow(BATCH, record)[i]]));

describe('a results CSV row', () => {
  it('carries the estimate totals, a false `complete` included, and leaves them empty without an estimate', () => {
    const answer = { coverageStatus: 'Active', estimate: { network: 'in', lines: [], patientOwes: 'N/A', planPays: 'N/A', complete: false } };
    expect(cells(item(200, answer))).toMatchObject({ 'estimate.patientOwes': 'N/A', 'estimate.planPays': 'N/A', 'estimate.complete': 'false' });
    expect(cells(item(200, { coverageStatus: 'Active' }))).toMatchObject({ 'estimate.patientOwes': '', 'estimate.complete': '' });
  });

  it('prefixes with an apostrophe every cell that begins like a formula (=, +, -, @, tab, CR), and only those', () => {
    const row = cells(item(400, { code: 'INVALID_REQUEST', message: '\tcmd|calc' }, '\r=1'));
    expect([row.clientRef, row.errorMessage, row.errorCode]).toEqual(["'\r=1", "'\tcmd|calc", 'INVALID_REQUEST']);
    expect(['=A1', '+1', '-1', '@x'].map(inertCell)).toEqual(["'=A1", "'+1", "'-1", "'@x"]);
    expect(['$1,234.50', '20%', 'N/A', 'a=b', ''].map(inertCell)).toEqual(['$1,234.50', '20%', 'N/A', 'a=b', '']);
  });

  it('leaves figures exactly as the answer has them, a payer’s negative amount included', () => {
    const individual = {
      copay: '-$25.00',
      deductible: { total: '$500.00', remaining: '-$5.00' },
      coinsurance: '-20%',
      stopLoss: 'N/A',
      stopLossRemaining: 'N/A',
    };
    const answer = { coverageStatus: 'Active', inNetwork: { individual }, estimate: { patientOwes: '-$25.00', planPays: '$125.00', complete: true } };
    expect(cells(item(200, answer, 'ok'))).toMatchObject({
      'inNetwork.individual.copay': '-$25.00',
      'inNetwork.individual.deductible.remaining': '-$5.00',
      'inNetwork.individual.coinsurance': '-20%',
      'estimate.patientOwes': '-$25.00',
    });
  });
});
