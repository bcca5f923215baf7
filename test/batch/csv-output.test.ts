import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { batchCsv, CSV_COLUMNS } from '../../lib/batch/csv-output.js';
import { dynamoBatchStore } from '../../lib/batch/adapters/dynamodb.js';
import type { BatchStore } from '../../lib/batch/store.js';
import { emptyCounts, emptyOutcomes, type BatchRecord, type ItemRecord } from '../../lib/batch/types.js';
import { createBatchTable } from '../../infra/dev/local/batch.js';
import { localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';

/** Results rows as the CSV writer gives them: estimate totals and cells a spreadsheet must not run as formulas. */

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

let dynamo: LocalDynamo;
let store: BatchStore;
let batches = 0;
beforeAll(async () => {
  dynamo = await startDynalite();
  store = dynamoBatchStore(localDynamoClient(dynamo.endpoint), await createBatchTable(dynamo.endpoint, 'batches'));
});
afterAll(async () => dynamo.close());

/** The rows batchCsv writes for a batch of these items (stored in order), each keyed by its column's name. */
async function rowsOf(...records: ItemRecord[]): Promise<Record<string, string>[]> {
  const batch = { ...BATCH, batchId: `b-${++batches}`, totalCount: records.length };
  await store.create(
    batch,
    records.map((record, index) => ({ ...record, batchId: batch.batchId, index })),
  );
  let text = '';
  for await (const chunk of batchCsv(store, batch)) text += chunk;
  const [header, ...rows] = parse(text, { bom: true }) as string[][];
  expect(header).toEqual(CSV_COLUMNS);
  return rows.map((row) => Object.fromEntries(CSV_COLUMNS.map((name, i) => [name, row[i]])));
}

describe('a results CSV row', () => {
  it('carries the estimate totals, a false `complete` included, and leaves them empty without an estimate', async () => {
    const answer = { coverageStatus: 'Active', estimate: { network: 'in', lines: [], patientOwes: 'N/A', planPays: 'N/A', complete: false } };
    const [withEstimate, without] = await rowsOf(item(200, answer), item(200, { coverageStatus: 'Active' }));
    expect(withEstimate).toMatchObject({ 'estimate.patientOwes': 'N/A', 'estimate.planPays': 'N/A', 'estimate.complete': 'false' });
    expect(without).toMatchObject({ 'estimate.patientOwes': '', 'estimate.complete': '' });
  });

  it('carries the COB part: its code, or the code of its failure, empty without one', async () => {
    const [found, failed, none] = await rowsOf(
      item(200, { coverageStatus: 'Active', cob: { cobCode: 'MemberFoundNoCOB', requestedPlanBenefits: [], additionalPlanBenefitInfo: [] } }),
      item(200, { coverageStatus: 'Active', cob: { message: 'The clearinghouse is unavailable; try again later', code: 'PAYER_UNAVAILABLE' } }),
      item(200, { coverageStatus: 'Active' }),
    );
    expect([found!['cob.cobCode'], found!['cob.error']]).toEqual(['MemberFoundNoCOB', '']);
    expect([failed!['cob.cobCode'], failed!['cob.error']]).toEqual(['', 'PAYER_UNAVAILABLE']);
    expect([none!['cob.cobCode'], none!['cob.error']]).toEqual(['', '']);
  });

  it('gathers what the estimate’s lines miss into one `estimate.missing` cell, each name once', async () => {
    const line = (missing?: string[]) => ({ serviceTypeCode: '30', ...(missing ? { missing } : {}) });
    const estimate = {
      network: 'in',
      lines: [line(['deductibleRemaining', 'primaryPayer']), line(), line(['coinsuranceAfterCopay', 'primaryPayer'])],
      patientOwes: '$10.00',
      planPays: '$90.00',
      complete: false,
    };
    const [missing, complete, without] = await rowsOf(
      item(200, { coverageStatus: 'Active', estimate }),
      item(200, { coverageStatus: 'Active', estimate: { ...estimate, lines: [line()], complete: true } }),
      item(200, { coverageStatus: 'Active' }),
    );
    expect(missing).toMatchObject({ 'estimate.complete': 'false', 'estimate.missing': 'deductibleRemaining;primaryPayer;coinsuranceAfterCopay' });
    expect([complete!['estimate.complete'], complete!['estimate.missing']]).toEqual(['true', '']);
    expect(without!['estimate.missing']).toBe('');
  });

  it('prefixes with an apostrophe every cell that begins like a formula (=, +, -, @, tab, CR), and only those', async () => {
    const formulas = ['=A1', '+1', '-1', '@x'];
    const plain = ['$1,234.50', '20%', 'N/A', 'a=b', ''];
    // clientRef carries caller input as given: one row per reference after the failed item's.
    const [row, ...refs] = await rowsOf(
      item(400, { code: 'INVALID_REQUEST', message: '\tcmd|calc' }, '\r=1'),
      ...[...formulas, ...plain].map((ref) => item(200, {}, ref)),
    );
    expect([row!.clientRef, row!.errorMessage, row!.errorCode]).toEqual(["'\r=1", "'\tcmd|calc", 'INVALID_REQUEST']);
    expect(refs.slice(0, formulas.length).map((cells) => cells.clientRef)).toEqual(["'=A1", "'+1", "'-1", "'@x"]);
    expect(refs.slice(formulas.length).map((cells) => cells.clientRef)).toEqual(['$1,234.50', '20%', 'N/A', 'a=b', '']);
  });

  it('leaves figures exactly as the answer has them, a payer’s negative amount included', async () => {
    const individual = {
      copay: '-$25.00',
      deductible: { total: '$500.00', remaining: '-$5.00' },
      coinsurance: '-20%',
      stopLoss: 'N/A',
      stopLossRemaining: 'N/A',
    };
    const answer = { coverageStatus: 'Active', inNetwork: { individual }, estimate: { patientOwes: '-$25.00', planPays: '$125.00', complete: true } };
    expect((await rowsOf(item(200, answer, 'ok')))[0]).toMatchObject({
      'inNetwork.individual.copay': '-$25.00',
      'inNetwork.individual.deductible.remaining': '-$5.00',
      'inNetwork.individual.coinsurance': '-20%',
      'estimate.patientOwes': '-$25.00',
    });
  });

  it('names the fields of a refused item and the AAA reasons of a rejection in errorMessage, not a count of problems', async () => {
    const refused = {
      message: 'The request body is invalid (2 problems)',
      code: 'INVALID_REQUEST',
      errors: [
        { field: 'patientDOB', message: 'must be a real date in the form MM-DD-YYYY' },
        { field: 'serviceTypeCodes[0]', message: 'must be an X12 service type code' },
      ],
    };
    const rejected = {
      message: 'The payer rejected the request',
      code: 'PAYER_REJECTED',
      rejections: [
        { code: '72', description: 'Invalid/Missing Subscriber/Insured ID', followUpAction: 'Please Correct and Resubmit', loop: '2100C' },
        { code: '73', description: 'Invalid/Missing Subscriber/Insured Name', followUpAction: 'Please Correct and Resubmit', loop: '2100C' },
      ],
    };
    const truncated = { ...refused, errors: refused.errors.slice(0, 1), errorsTruncated: true };
    const [fields, reasons, more, bare] = await rowsOf(
      item(400, refused),
      item(422, rejected),
      item(400, truncated),
      item(503, { message: 'The payer is unavailable; try again later', code: 'PAYER_UNAVAILABLE' }),
    );
    expect(fields!.errorMessage).toBe('patientDOB: must be a real date in the form MM-DD-YYYY; serviceTypeCodes[0]: must be an X12 service type code');
    expect(reasons!.errorMessage).toBe(
      'AAA 72 Invalid/Missing Subscriber/Insured ID (loop 2100C); AAA 73 Invalid/Missing Subscriber/Insured Name (loop 2100C)',
    );
    expect(more!.errorMessage).toBe('patientDOB: must be a real date in the form MM-DD-YYYY; and more problems');
    expect(bare!.errorMessage).toBe('The payer is unavailable; try again later');
  });

  it('gives back a clientRef with line breaks, tabs, commas and quotes intact, in one quoted cell', async () => {
    const refs = ['appt 08:00\nroom 2', 'a\tb', 'line 1\r\nline 2, "north"'];
    const rows = await rowsOf(...refs.map((ref) => item(200, { coverageStatus: 'Active' }, ref)));
    expect(rows.map((row) => row.clientRef)).toEqual(refs);
  });
});
