import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Jest 30 in native ESM mode; TypeScript is stripped by SWC (ts-jest does not support TypeScript 7).
 *
 * Two projects (docs/testing.md), which `npm test` runs together:
 * - `unit`: each module's own tests, in process (`npm run test:fast`);
 * - `integration`: the suites that start the local server or a sandbox over HTTP, spawn a process,
 *   render letters or check PDFs (test/support/pdf-tools.ts: pdf.js, qpdf as WebAssembly), load the FHIR R4 definitions, synthesise the CDK stack, plus
 *   the load, fuzz, hostile-input and fault folders. A suite is put here by what it does (the rule
 *   below reads its source), so a new one lands in the right project without a list to keep.
 */
const INTEGRATION_FOLDERS = ['load', 'fuzz', 'hostile', 'faults'];
const INTEGRATION_SOURCE =
  /startLocalApi|startLocalServer|startLocalEnvironment|start\w*Sandbox|child_process|fhir-r4|pdf-tools|synthTemplate|new App\(|renderLetterPdf|runLetter/;

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const root = new URL('.', import.meta.url).pathname;
const isIntegration = (file) =>
  INTEGRATION_FOLDERS.some((folder) => file.startsWith(`${join(root, 'test', folder)}/`)) || INTEGRATION_SOURCE.test(readFileSync(file, 'utf8'));
const all = testFiles(join(root, 'test'));
const integration = all.filter(isIntegration);
const unit = all.filter((file) => !isIntegration(file));

const shared = {
  testEnvironment: '<rootDir>/test/environment.js',
  roots: ['<rootDir>/test'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } }, module: { type: 'es6' } },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/setup-env.js'],
};

export default {
  testTimeout: 20000,
  // Every core: most suites wait on loopback HTTP, not the CPU.
  maxWorkers: '100%',
  // Prints each warning that remains once for the whole run (test/global-setup.js).
  globalSetup: '<rootDir>/test/global-setup.js',
  // Jest's order, except that on a run without timings the integration suites start first (test/sequencer.js).
  testSequencer: '<rootDir>/test/sequencer.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: unit },
    { ...shared, displayName: 'integration', testMatch: integration },
  ],
};
