/**
 * Lambda's Node major on this machine, for the benchmarks whose figures depend on the runtime
 * (V8 version, builtin modules): this Node when it is that major, else the npm registry's Node build
 * for this platform (`node-<platform>-<arch>@22`, fetched once into npx's cache). Undefined when
 * neither is at hand (offline, or a platform without a build); the benchmarks then say so and use
 * this Node. docs/benchmarks.md#two-runtimes
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Lambda's Node major (infra/deploy/stack.ts: Runtime.NODEJS_22_X). */
export const LAMBDA_NODE_MAJOR = 22;

/** Absolute path of a Node binary of Lambda's major, or undefined. */
export function lambdaNodePath(): string | undefined {
  if (process.versions.node.split('.')[0] === String(LAMBDA_NODE_MAJOR)) return process.execPath;
  try {
    const printed = execFileSync(
      'npx',
      ['--yes', '--package', `node-${process.platform}-${process.arch}@${LAMBDA_NODE_MAJOR}`, '--', 'node', '-p', 'process.version + " " + process.execPath'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 300_000 },
    ).trim();
    // "v22.x.y /path/to/node": the path may itself hold spaces.
    const space = printed.indexOf(' ');
    const version = printed.slice(0, space);
    const path = printed.slice(space + 1);
    return space > 0 && version.startsWith(`v${LAMBDA_NODE_MAJOR}.`) && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
