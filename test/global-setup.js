/**
 * Runs once, before any test file (jest.config.js `globalSetup`), and prints each warning that is left
 * once (README, "Installing"), instead of once per test file or per worker:
 *
 * - The AWS SDK warns (NodeVersionSupportWarning) when Node is older than 22, once per copy of its
 *   module; Jest loads modules afresh for every test file, so a run on Node 20 printed it 23 times.
 *   Lambda runs Node 22 (package.json engines); on an older local Node it is printed here, and the
 *   SDK's own copies are switched off with its documented variable, which the workers inherit.
 * - Jest runs the ES modules through Node's `--experimental-vm-modules`; Node warns about that once per
 *   process. The npm test scripts pass `--disable-warning=ExperimentalWarning`, and the note is here.
 */
export default function globalSetup() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22 && process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED !== 'true') {
    process.stderr.write(
      `note: Node ${process.version} here; Lambda runs Node 22. The AWS SDK warns that its releases after the first week of January 2027 need Node 22 or later (shown once).\n`,
    );
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  if (process.execArgv.concat((process.env.NODE_OPTIONS ?? '').split(/\s+/)).includes('--disable-warning=ExperimentalWarning')) {
    process.stderr.write("note: Jest runs ES modules through Node's experimental VM modules (--experimental-vm-modules) (shown once).\n");
  }
}
