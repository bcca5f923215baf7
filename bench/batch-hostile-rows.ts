import type { BatchHostileReport } from './batch-hostile.js';

/** The hostile batch figures (bench/batch-hostile.ts writes bench/results/batch-hostile.json) as rows of `npm run bench`'s table. */

interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  pass: boolean | null;
}

const LABELS: Record<string, { figure: string; targetSeconds?: number; status?: number }> = {
  submit10k: { figure: 'batch: 10,000-item JSON submit, CPU s (RSS added MiB)', targetSeconds: 2, status: 202 },
  submit10kEmptyItems: { figure: 'batch: 10,000 `{}` items (30 KB), CPU s', targetSeconds: 2, status: 202 },
  csv1400kRows: { figure: 'batch: 1.4 M-row CSV, CPU s (refused)', targetSeconds: 2, status: 400 },
  statePendingOn10kFinished: { figure: 'batch: items?pageSize=1&state=PENDING, 10,000 finished, CPU s', targetSeconds: 0.1, status: 200 },
  statePendingOn10kQueued: { figure: 'batch: items?pageSize=1&state=PENDING, 10,000 queued, CPU s', targetSeconds: 0.1, status: 200 },
  stateCompletedOn10kQueued: { figure: 'batch: items?pageSize=1&state=COMPLETED, 10,000 queued, CPU s', targetSeconds: 0.1, status: 200 },
  page500RichAnswers: { figure: 'batch: items?pageSize=500 on 500 rich answers, CPU s', status: 200 },
};

export function batchHostileRows(report: BatchHostileReport): Row[] {
  return Object.entries(report).map(([name, figure]) => {
    const label = LABELS[name] ?? { figure: `batch: ${name}` };
    const cpuOk = label.targetSeconds === undefined || figure.cpuSeconds <= label.targetSeconds;
    return {
      figure: label.figure,
      value: `${figure.cpuSeconds} (${figure.rssAddedMiB} MiB, HTTP ${figure.status}${figure.note ? `, ${figure.note}` : ''})`,
      baseline: '',
      ratio: '',
      target: `${label.targetSeconds === undefined ? '' : `≤ ${label.targetSeconds} s, `}HTTP ${label.status ?? ''}`,
      pass: cpuOk && (label.status === undefined || figure.status === label.status),
    };
  });
}
