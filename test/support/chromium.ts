/**
 * The Chromium the browser tests drive (docs/testing.md#chromium), without a system package:
 *
 * 1. `CHROMIUM_PATH`, when set, names the Chromium or Chrome to use (it must exist);
 * 2. on Linux x64, the headless Chromium that the `@sparticuz/chromium` dev dependency ships inside its
 *    npm package (brotli-compressed, with the NSS and expat libraries it links and a font set), unpacked
 *    once per version into the temp directory;
 * 3. elsewhere (macOS, arm64), the system's Chromium or Chrome at its usual path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `chromium.launch` of playwright-core needs: the binary and the environment it runs in. */
export interface ChromiumBinary {
  executablePath: string;
  env: NodeJS.ProcessEnv;
}

const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * Unpacks the npm package's Chromium into `<tmp>/eligibility-chromium-<version>/` (the binary, `al2023/lib`
 * with its libraries, `fonts`), once: a child process runs the package's own unpacking with its temp
 * directory pointed at a fresh folder, and the folder is renamed into place whole, so a second process
 * never sees half a binary. The package's fontconfig file names Lambda's folders (`/tmp/fonts`), so a
 * `fonts.conf` of our own names the unpacked fonts and the letter's DejaVu set: with no font found,
 * this Chromium aborts at the first font fallback ("SkFontMgr_FontConfigInterface … Not implemented").
 */
function npmChromium(): ChromiumBinary {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const dir = join(tmpdir(), `eligibility-chromium-${version}`);
  if (!existsSync(join(dir, 'chromium'))) {
    const staging = mkdtempSync(`${dir}.partial-`);
    const unpack = `const { default: Chromium, inflate } = await import(${JSON.stringify(entry)});
await Chromium.executablePath(${JSON.stringify(join(root, 'bin'))});
await inflate(${JSON.stringify(join(root, 'bin', 'al2023.tar.br'))});`;
    execFileSync(process.execPath, ['--input-type=module', '-e', unpack], { env: { ...process.env, TMPDIR: staging }, stdio: 'ignore' });
    const dejavu = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts')}</dir>\n  <dir>${dejavu}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process unpacked it first
    }
  }
  return {
    executablePath: join(dir, 'chromium'),
    env: { ...process.env, LD_LIBRARY_PATH: join(dir, 'al2023', 'lib'), FONTCONFIG_FILE: join(dir, 'fonts.conf') },
  };
}

/** The Chromium to launch, or an error that says how to get one. */
export function findChromium(): ChromiumBinary {
  const named = process.env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named)) throw new Error(`CHROMIUM_PATH names ${named}, which does not exist`);
    return { executablePath: named, env: process.env };
  }
  if (process.platform === 'linux' && process.arch === 'x64') return npmChromium();
  const system = SYSTEM_PATHS.find((path) => existsSync(path));
  if (system) return { executablePath: system, env: process.env };
  throw new Error(
    `No Chromium for ${process.platform}/${process.arch}: the npm one (@sparticuz/chromium) is Linux x64 only; set CHROMIUM_PATH to a Chromium or Chrome binary`,
  );
}
