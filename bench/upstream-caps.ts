/**
 * An upstream that answers far too much (docs/benchmarks.md#hostile-input-and-faults): a loopback
 * clearinghouse streams a 400 MB raw X12 reply and a 40 MB payer search page; one request each, from a
 * fresh process, reports its CPU seconds and how far its resident memory grew. The answer must be a
 * 502 UPSTREAM_ERROR within 2 s of CPU, without memory growing by the body's size.
 *
 * Writes bench/results/upstream-caps.json. With UPSTREAM_CAPS_BEFORE=<checkout> (e.g. /work/main) the
 * same request is also made with that checkout's lib/upstream, for the figure before the cap.
 * A probe whose resident memory passes CAP_MIB is killed and reported so.
 *
 * Usage: node --import tsx bench/upstream-caps.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1_000_000;
const CAP_MIB = Number(process.env.UPSTREAM_CAPS_CAP_MIB ?? 4096);
const CASES = [
  { name: 'clearinghouse raw X12 reply', kind: 'raw-x12', bytes: 400 * MB },
  { name: 'payer search page', kind: 'payer-search', bytes: 40 * MB },
] as const;
type Kind = (typeof CASES)[number]['kind'];

export interface UpstreamCapProbe {
  case: string;
  code: string;
  bodyMB: number;
  cpuSeconds: number;
  rssGrowthMiB: number;
  peakRssMiB: number;
  /** Bytes the server had sent when the client hung up (or all of them). */
  sentMB: number;
}

export interface UpstreamCapsReport {
  after: UpstreamCapProbe[];
  before?: UpstreamCapProbe[];
  beforeRoot?: string;
}

/** The probe: one request with `checkout`'s lib/upstream, measured in this process (modules loaded first). */
async function probe(checkout: string, kind: Kind, url: string): Promise<void> {
  const lib = (path: string) => import(pathToFileURL(join(checkout, 'lib/upstream', path)).href);
  const [{ postRawX12 }, { searchStediPayers }] = await Promise.all([lib('stedi.ts'), lib('stedi-payers.ts')]);
  const request = async (): Promise<string> => {
    if (kind === 'raw-x12') {
      const call = await postRawX12({ baseUrl: url, apiKey: 'bench', budgetMs: 120_000, x12: 'ISA~' }, () => ({ reading: undefined, retryable: false }));
      return call.result.ok ? 'ok' : call.result.error.code;
    }
    const call = await searchStediPayers({ baseUrl: url, apiKey: 'bench', timeoutMs: 120_000 }, { query: 'aetna' });
    return call.result.ok ? 'ok' : call.result.error.code;
  };
  // Node loads its fetch (undici) on first use: warm it so its own memory is not counted.
  await (await fetch(`${url}/warm`)).text();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = process.cpuUsage();
  const code = await request();
  const cpu = process.cpuUsage(started);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mib = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
  process.stdout.write(
    `${JSON.stringify({ code, cpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100, rssGrowthMiB: mib(peak - startRss), peakRssMiB: mib(peak) })}\n`,
  );
}

/** Streams `{"x12":"AAAA…"}` (or `{"items":["AAAA…"]}`) of `bytes`, honouring back-pressure, and records how much went out. */
function serveHuge(res: ServerResponse, bytes: number, kind: Kind, sent: { bytes: number }): void {
  const head = kind === 'raw-x12' ? '{"x12":"' : '{"items":["';
  const tail = kind === 'raw-x12' ? '"}' : '"]}';
  const chunk = Buffer.alloc(64 * 1024, 'A');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(head);
  sent.bytes = head.length;
  const pump = (): void => {
    while (!res.destroyed && sent.bytes + chunk.length < bytes - tail.length) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (res.destroyed) return;
    res.end(Buffer.concat([Buffer.alloc(bytes - tail.length - sent.bytes, 'A'), Buffer.from(tail)]));
    sent.bytes = bytes;
  };
  pump();
}

/** Runs one probe in a fresh process against a fresh loopback upstream; kills it past CAP_MIB. */
async function measure(checkout: string, c: (typeof CASES)[number]): Promise<UpstreamCapProbe> {
  const sent = { bytes: 0 };
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === '/warm') res.end();
    else req.on('end', () => serveHuge(res, c.bytes, c.kind, sent));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--probe', checkout, c.kind, url], {
      cwd: checkout,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let killed = false;
    const watch = setInterval(() => {
      try {
        if (rssMiB(child.pid!) > CAP_MIB) {
          killed = true;
          child.kill('SIGKILL');
        }
      } catch {
        // the probe has ended
      }
    }, 20);
    await new Promise((resolve) => child.on('close', resolve));
    clearInterval(watch);
    const base = { case: c.name, bodyMB: c.bytes / MB, sentMB: Math.round(sent.bytes / 1e5) / 10 };
    if (killed) return { ...base, code: `killed past ${CAP_MIB} MiB`, cpuSeconds: NaN, rssGrowthMiB: NaN, peakRssMiB: CAP_MIB };
    return { ...base, ...(JSON.parse(out.trim().split('\n').at(-1)!) as Omit<UpstreamCapProbe, 'case' | 'bodyMB' | 'sentMB'>) };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Resident memory of a process in MiB (Linux /proc). */
function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

async function main(): Promise<void> {
  const report: UpstreamCapsReport = { after: [] };
  for (const c of CASES) report.after.push(await measure(root, c));
  const beforeRoot = process.env.UPSTREAM_CAPS_BEFORE;
  if (beforeRoot) {
    report.beforeRoot = beforeRoot;
    report.before = [];
    for (const c of CASES) report.before.push(await measure(beforeRoot, c));
  }
  for (const [when, probes] of [
    ['after', report.after],
    ['before', report.before ?? []],
  ] as const) {
    for (const p of probes) {
      console.error(
        `${when}: ${p.case} (${p.bodyMB} MB): ${p.code}, ${p.cpuSeconds} CPU-s, RSS +${p.rssGrowthMiB} MiB (peak ${p.peakRssMiB} MiB), server sent ${p.sentMB} MB`,
      );
    }
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/upstream-caps.json'), `${JSON.stringify(report, null, 2)}\n`);
}

if (process.argv[2] === '--probe') {
  await probe(process.argv[3]!, process.argv[4] as Kind, process.argv[5]!);
} else {
  await main();
}
