/**
 * Hostile callers against the local server (docs/security.md#local-server), written to
 * bench/results/local-server-hostile.json: 300 clients at once, each announcing and sending a 6 MB
 * body, once with a bad token (refused on the headers; the body is never read) and once with the
 * good dev token (bodies read under the cap on bytes held at once; the rest get 503). The server
 * runs in its own process (this file with `--serve`), so the figure is the server's memory alone:
 * its resident set before, and its peak (VmHWM, which catches a spike between samples) after.
 * Target (contract, revision 3): the bad-token run grows the server by < 400 MB.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENTS = Number(process.env.HOSTILE_CLIENTS ?? 300);
const BODY_BYTES = 6 * 1024 * 1024;
const TARGET_MB = 400;

interface RunReport {
  scenario: string;
  clients: number;
  bodyBytes: number;
  statuses: Record<string, number>;
  baselineRssMB: number;
  peakRssMB: number;
  growthMB: number;
  seconds: number;
}

async function serve(): Promise<void> {
  const { startLocalEnvironment } = await import('../infra/dev/local/environment.js');
  const { startLocalServer } = await import('../infra/dev/local/server.js');
  const environment = await startLocalEnvironment(process.env);
  const server = await startLocalServer({ port: 0 });
  process.stdout.write(`${JSON.stringify({ url: server.url, token: environment.devToken })}\n`);
  process.on(
    'SIGTERM',
    () =>
      void server
        .close()
        .then(() => environment.close())
        .then(() => process.exit(0)),
  );
}

const MB = 1_000_000;
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** One client: the head, then the whole body from a shared buffer; resolves with the status it got. */
function hostileClient(url: URL, token: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let first = '';
    socket.on('data', (chunk: Buffer) => {
      if (first.length < 12) first += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(first)?.[1] ?? 'no answer'));
    socket.on('connect', () => {
      socket.write(
        `POST /api/eligibility/v1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.end(body);
    });
  });
}

async function run(scenario: 'bad-token' | 'good-token'): Promise<RunReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const url = new URL(ready.url);
    const token = scenario === 'bad-token' ? 'nobody-knows-this-token' : ready.token;
    // Warm up (functions loaded, authorizer answer cached) so the baseline is the running server's.
    await fetch(`${ready.url}/api/eligibility/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = memory(child.pid!).rss;
    const body = Buffer.alloc(BODY_BYTES, 'A');
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: CLIENTS }, () => hostileClient(url, token, body)));
    const seconds = (performance.now() - started) / 1000;
    const peak = memory(child.pid!).hwm;
    const counts: Record<string, number> = {};
    for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
    return {
      scenario,
      clients: CLIENTS,
      bodyBytes: BODY_BYTES,
      statuses: counts,
      baselineRssMB: baseline / MB,
      peakRssMB: peak / MB,
      growthMB: (peak - baseline) / MB,
      seconds,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  const runs = [await run('bad-token'), await run('good-token')];
  const report = { measuredAt: new Date().toISOString(), node: process.version, targetMB: TARGET_MB, runs };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/local-server-hostile.json'), `${JSON.stringify(report, null, 2)}\n`);
  for (const r of runs) {
    const verdict = r.scenario === 'bad-token' ? ` (target < ${TARGET_MB} MB: ${r.growthMB < TARGET_MB ? 'pass' : 'FAIL'})` : '';
    process.stderr.write(
      `${r.scenario}: ${r.clients} clients × ${r.bodyBytes} B → server ${r.baselineRssMB.toFixed(0)} MB → peak ${r.peakRssMB.toFixed(0)} MB, ` +
        `growth ${r.growthMB.toFixed(0)} MB${verdict}; answers ${JSON.stringify(r.statuses)} in ${r.seconds.toFixed(1)} s\n`,
    );
  }
}
