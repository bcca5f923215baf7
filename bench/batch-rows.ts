/** The batch figures (bench/batch.ts writes bench/results/batch.json) as rows of `npm run bench`'s table. */

export interface BatchReport {
  submit10kMs: number;
  submitTargetMs: number;
  run: { items: number; seconds: number; idealSeconds: number; ratio: number; target: number; maxUpstreamInFlight: number };
  page500Ms: number;
  pageTargetMs: number;
  heapMiB: { before: number; afterRun: number; afterSubmit: number; gcExposed: boolean };
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
      figure: `batch: server heap MiB before / after the run / after the 10k submit${report.heapMiB.gcExposed ? ' (after GC)' : ''}`,
      value: `${report.heapMiB.before} / ${report.heapMiB.afterRun} / ${report.heapMiB.afterSubmit}`,
      baseline: '',
      ratio: '',
      target: 'flat',
      pass: null,
    },
  ];
}
