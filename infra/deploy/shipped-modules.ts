import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Packages a function loads at run time from `node_modules/` beside its bundle instead of from inside
 * it (docs/deployment.md#cold-starts): esbuild leaves them external and the bundling step copies their
 * runtime files from the repository's own node_modules. No `npm install` runs at synth, so `cdk synth`
 * needs no network and takes seconds (the CDK's `nodeModules` option installs them afresh each time).
 */

/** The letter's pdf.js (unpdf, 1.6 MB) is imported only when a letter's codes are verified: shipped beside the bundle, so a cold start does not parse it. */
export const SHIPPED_MODULES = { letter: ['unpdf'] } as const satisfies Record<string, readonly string[]>;

type Exports = string | { [condition: string]: Exports } | null;

/** Every file an ESM `import` of the package (or of one of its subpaths) can reach through its `exports`. */
function importTargets(exports: Exports): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  // Subpaths ("." , "./pdfjs") and conditions: follow "import", "node" and "default", never "require" or "types".
  return Object.entries(exports).flatMap(([key, value]) =>
    key.startsWith('.') || key === 'import' || key === 'node' || key === 'default' ? importTargets(value) : [],
  );
}

/**
 * The files of `pkg` that Node needs to `import` it (its package.json, what its `exports` point at for
 * `import`) plus its licence, relative to the package folder, read from `nodeModulesDir`.
 */
export function runtimeFiles(nodeModulesDir: string, pkg: string): string[] {
  const dir = join(nodeModulesDir, pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    exports?: Exports;
    module?: string;
    main?: string;
    dependencies?: Record<string, string>;
  };
  // Only the package itself is copied: one that needs others would fail at run time, so refuse it at synth.
  if (Object.keys(manifest.dependencies ?? {}).length > 0) throw new Error(`${pkg} has dependencies of its own; ship it inside the bundle instead`);
  const targets = manifest.exports ? importTargets(manifest.exports) : [manifest.module ?? manifest.main ?? 'index.js'];
  const licence = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].filter((name) => existsSync(join(dir, name)));
  return [...new Set(['package.json', ...licence, ...targets.map((target) => target.replace(/^\.\//, ''))])].sort();
}

/**
 * Shell commands (the CDK's afterBundling hook) that copy the packages' runtime files from
 * `inputDir/node_modules` into `outputDir/node_modules`. The file list is read from `readFrom` (the
 * project's node_modules on this machine): the CDK also builds the commands for a Docker bundling
 * whose `inputDir` (/asset-input) exists only inside the container.
 */
export function shipModulesCommands(packages: readonly string[], inputDir: string, outputDir: string, readFrom = join(inputDir, 'node_modules')): string[] {
  return packages.flatMap((pkg) => {
    const files = runtimeFiles(readFrom, pkg);
    const folders = [...new Set(files.map((file) => join(outputDir, 'node_modules', pkg, file, '..')))];
    return [
      ...folders.map((folder) => `mkdir -p "${folder}"`),
      ...files.map((file) => `cp "${join(inputDir, 'node_modules', pkg, file)}" "${join(outputDir, 'node_modules', pkg, file)}"`),
    ];
  });
}
