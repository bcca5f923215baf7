/**
 * Jest 30 in native ESM mode; TypeScript is stripped by SWC (ts-jest does not support TypeScript 7).
 *
 * Two projects (docs/testing.md): `unit`, the fast suites (`npm run test:fast`), and `slow`, the load,
 * fuzz, hostile-input, fault and long-running suites plus the ones that synthesise the CDK stack or
 * spawn processes. `npm test` runs both.
 */
const SLOW = [
  '<rootDir>/test/load/',
  '<rootDir>/test/fuzz/',
  '<rootDir>/test/hostile/',
  '<rootDir>/test/faults/',
  '<rootDir>/test/infra/stack.test.ts',
  '<rootDir>/test/infra/bundling.test.ts',
  '<rootDir>/test/local/invoke.test.ts',
  '<rootDir>/test/local/integration-timeout.test.ts',
  '<rootDir>/test/letter/long-letter.test.ts',
  '<rootDir>/test/openapi/document.test.ts',
  '<rootDir>/test/openapi/typed-client.test.ts',
  '<rootDir>/test/docs/api-reference.test.ts',
];

const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } }, module: { type: 'es6' } }],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/setup-env.js'],
};

export default {
  testTimeout: 20000,
  // Prints each warning that remains once for the whole run (test/global-setup.js).
  globalSetup: '<rootDir>/test/global-setup.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['/node_modules/', ...SLOW] },
    { ...shared, displayName: 'slow', testMatch: SLOW.map((path) => (path.endsWith('/') ? `${path}**/*.test.ts` : path)) },
  ],
};
