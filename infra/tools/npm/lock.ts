import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run lock`: regenerates package-lock.json from scratch, the way `npm ci` on any platform
 * needs it (README, "Installing"). It resolves package.json (and the
 * workspaces' package.json) in an empty temporary directory with the project .npmrc, so neither
 * this machine's node_modules nor an old lock leaks into it, then checks that every optional
 * platform package (esbuild, swc, unrs-resolver binaries…) of every locked package is locked too:
 * `npm ci` refuses a lock that lacks one, on every platform. A version missing for some platform on
 * the registry is named, so it can be pinned to one published for all (see package.json overrides).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  peer?: boolean;
}

/** Optional dependencies named by a locked package but absent from the lock (what npm ci reports as Missing). */
export function missingOptionalPackages(lock: { packages: Record<string, LockEntry> }): string[] {
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      // Node resolution: the package's own node_modules, then each parent's, then the root's.
      let base = path;
      let found = false;
      for (;;) {
        if (lock.packages[`${base ? `${base}/` : ''}node_modules/${name}`]) {
          found = true;
          break;
        }
        if (!base) break;
        const cut = base.lastIndexOf('node_modules/');
        base = cut <= 0 ? '' : base.slice(0, cut - 1);
      }
      if (!found) missing.push(`${name}@${entry.optionalDependencies![name]} (wanted by ${path || 'the root'}@${entry.version ?? ''})`);
    }
  }
  return missing;
}

function workspaces(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return manifest.workspaces ?? [];
}

function regenerate(): void {
  const dir = mkdtempSync(join(tmpdir(), 'lock-'));
  try {
    for (const file of ['package.json', '.npmrc', ...workspaces().map((w) => `${w}/package.json`)]) {
      if (!existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(root, file), join(dir, file));
    }
    process.stderr.write(`resolving package.json from scratch in ${dir} (takes a minute)…\n`);
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    const missing = missingOptionalPackages(lock);
    if (missing.length > 0) {
      process.stderr.write(
        `The registry lacks these platform packages, so npm ci would refuse the lock; pin their parents to a version published for every platform (package.json "overrides" or an exact devDependency):\n  ${missing.join('\n  ')}\n`,
      );
      process.exitCode = 1;
      return;
    }
    copyFileSync(join(dir, 'package-lock.json'), join(root, 'package-lock.json'));
    process.stderr.write('package-lock.json regenerated; run `npm install` to sync node_modules, then `npm ci --dry-run` to check.\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function check(): void {
  const missing = missingOptionalPackages(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')));
  if (missing.length > 0) {
    process.stderr.write(`package-lock.json lacks optional platform packages (npm ci will refuse it); run npm run lock:\n  ${missing.join('\n  ')}\n`);
    process.exitCode = 1;
  } else process.stderr.write('package-lock.json has every optional platform package.\n');
}

// Run as a script (not imported by the tests): compare paths, not URL strings, so Windows paths and paths
// with spaces or other escaped characters match.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  if (process.argv.includes('--check')) check();
  else regenerate();
}
