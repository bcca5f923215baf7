import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm test` (docs/testing.md#npm-test): the type-check, the lint and every Jest suite, started
 * together rather than one after the other. Jest leaves part of two cores idle while its suites wait
 * on loopback servers, timers and child processes; the type-check and lint fill that time instead of
 * running first. Jest's output streams as it comes; each check's output is held and printed whole
 * when it ends, so lines never interleave. Arguments go to Jest (`npm test -- test/x12`). The exit
 * status is non-zero when any of the three fails, and the failed ones are named last.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The package.json scripts run, by what they are called in the summary. */
const CHECKS = { typecheck: 'typecheck', lint: 'lint' } as const;
const JEST_SCRIPT = 'test:unit';

/** `npm run <script> --silent -- <args>` through the npm that started us (npm sets npm_execpath). */
function npmRun(script: string, args: string[], capture: boolean): Promise<{ status: number; output: string }> {
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm ? [process.execPath, [npm]] : ['npm', []];
  return new Promise((resolve) => {
    const child = spawn(command, [...prefix, 'run', script, '--silent', ...(args.length > 0 ? ['--', ...args] : [])], {
      cwd: root,
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: !npm && process.platform === 'win32',
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => resolve({ status: 1, output: `${script}: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const checks = Object.entries(CHECKS).map(async ([name, script]) => {
  const { status, output } = await npmRun(script, [], true);
  if (output.trim()) process.stderr.write(`\n── ${name} ──\n${output}${output.endsWith('\n') ? '' : '\n'}`);
  return { name, status };
});
const jest = npmRun(JEST_SCRIPT, process.argv.slice(2), false).then(({ status }) => ({ name: 'jest', status }));

const failed = (await Promise.all([...checks, jest])).filter((run) => run.status !== 0).map((run) => run.name);
if (failed.length > 0) {
  process.stderr.write(`\nnpm test: ${failed.join(', ')} failed\n`);
  process.exitCode = 1;
}
