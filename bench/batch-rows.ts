/** The batch figures (bench/batch.ts writes bench/results/batch.json) as rows of `npm run bench`'s table. */

export interface BatchReport {
  submit10kMs: number;
  submitTargetMs: number;
  run: {
    items: number;
    seconds: number;
    idealSeconds: number;
    ratio: number;
    target: number;
    maxUpstreamInFlight: number;
    cpuMsPerItem: number;
    mainThreadMsPerItem: number;
  };
  page500Ms: number;
  pageTargetMs: number;
  /** Server heap before the batches and after each of five consecutive batches. */
  heapMiB: { before: number; afterEachBatch: number[]; rssBefore: number; rssAfterEachBatch: number[]; itemsPerBatch: number; gcExposed: boolean };
  loadAverage: number[];
}

interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean | null;
}

export function batchRows(report: BatchReport): Row[] {
  const { run } = report;
  return [
    {
      figure: 'batch: 10,000-item JSON submit answered, ms (local server)',
      value: String(report.submit10kMs),
      baseline: '',
      ratio: '',
      target: `≤ ${report.submitTargetMs}`,
      pass: report.submit10kMs <= report.submitTargetMs,
    },
    {
      figure: `batch: ${run.items} items, clearinghouse at 500 ms, cap 10, s to COMPLETED`,
      value: String(run.seconds),
      baseline: `ideal ${run.idealSeconds}`,
      ratio: `${run.ratio}x`,
      target: `≤ ${run.target}x`,
      pass: run.ratio <= run.target,
    },
    {
      figure: 'batch: most upstream calls at once',
      value: String(run.maxUpstreamInFlight),
      baseline: '',
      ratio: '',
      target: '≤ 10',
      pass: run.maxUpstreamInFlight <= 10,
    },
    {
      figure: 'batch: 500-item results page, ms (median of 7)',
      value: String(report.page500Ms),
      baseline: '',
      ratio: '',
      target: `≤ ${report.pageTargetMs}`,
      pass: report.page500Ms <= report.pageTargetMs,
    },
    {
      figure: 'batch: CPU per item, ms: server process / its main thread busy (load average at the end)',
      value: `${run.cpuMsPerItem} / ${run.mainThreadMsPerItem}`,
      baseline: '',
      ratio: '',
      target: `(load ${report.loadAverage[0]})`,
      pass: null,
    },
    {
      figure: `batch: server heap MiB before, then after each of ${report.heapMiB.afterEachBatch.length} batches of ${report.heapMiB.itemsPerBatch}${report.heapMiB.gcExposed ? ' (after GC)' : ''}`,
      value: [report.heapMiB.before, ...report.heapMiB.afterEachBatch].join(' / '),
      baseline: '',
      ratio: '',
      target: 'flat',
      pass: null,
    },
    {
      figure: 'batch: server resident memory MiB (every thread, dynalite and the rows it holds included), same points',
      value: [report.heapMiB.rssBefore, ...report.heapMiB.rssAfterEachBatch].join(' / '),
      baseline: '',
      ratio: '',
      target: 'flat',
      pass: null,
    },
  ];
}
