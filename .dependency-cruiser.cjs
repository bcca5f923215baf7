/**
 * Which code may import which (docs/architecture.md#imports): `npm test` runs `depcruise` with these rules.
 *
 * Every lib/ module sits in a folder of MAY_IMPORT (none directly under lib/). Each folder lists the
 * folders it may import, and nothing else: an allow-list per folder, not one ranking, so `letter` cannot
 * reach `batch` just because `batch` happens to rank lower. The lists form no cycle (checked below when
 * this file loads), so no two folders import each other. A folder is entered only through its door,
 * `lib/<folder>/index.ts`, from other folders, handlers, infrastructure and benches alike. A new folder is
 * caught as soon as anything imports it or it imports lib/. lib/ never reaches into the handlers, the
 * infrastructure, the tests or the benches.
 *
 * The swc parser does not see a type query (`import('../x.js').T`) in most places; the Biome plugin
 * lint/relative-type-query.grit forbids that form in lib/, functions/ and infra/, so every type-only
 * import is an `import type` declaration, which this check sees.
 */
const MAY_IMPORT = {
  errors: [],
  config: [],
  logging: ['config'],
  pdf: [],
  x12: ['config', 'errors'],
  upstream: ['config', 'errors'],
  enrollment: ['errors'],
  validation: ['config', 'enrollment', 'errors', 'x12'],
  mock: ['validation'],
  auth: ['config'],
  http: ['config', 'errors', 'logging', 'validation'],
  payers: ['config', 'errors', 'http', 'logging', 'validation'],
  runtime: ['config', 'enrollment', 'errors', 'logging', 'payers', 'upstream'],
  cob: ['enrollment', 'errors', 'http', 'logging', 'mock', 'payers', 'runtime', 'upstream', 'validation', 'x12'],
  eligibility: ['cob', 'config', 'enrollment', 'errors', 'http', 'logging', 'mock', 'payers', 'pdf', 'runtime', 'validation', 'x12'],
  discovery: ['config', 'eligibility', 'enrollment', 'errors', 'http', 'logging', 'runtime', 'upstream', 'validation', 'x12'],
  batch: ['cob', 'config', 'discovery', 'eligibility', 'enrollment', 'errors', 'http', 'logging', 'runtime', 'upstream', 'validation', 'x12'],
  fhir: ['config', 'eligibility', 'enrollment', 'errors', 'http', 'runtime', 'validation', 'x12'],
  card: ['config', 'eligibility', 'errors', 'http', 'logging', 'payers', 'runtime', 'upstream', 'validation'],
  letter: ['config', 'errors', 'http', 'logging', 'pdf', 'runtime', 'upstream', 'validation'],
  mcp: ['config', 'eligibility', 'errors', 'http', 'logging', 'payers', 'validation'],
};
const FOLDERS = Object.keys(MAY_IMPORT);

/** The allow-lists must not let two folders reach each other: a cycle here is a mistake in this file. */
(function refuseCycles() {
  const state = new Map();
  const visit = (folder, path) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') throw new Error(`.dependency-cruiser.cjs: MAY_IMPORT has a cycle: ${[...path, folder].join(' → ')}`);
    state.set(folder, 'open');
    for (const next of MAY_IMPORT[folder]) {
      if (!(next in MAY_IMPORT)) throw new Error(`.dependency-cruiser.cjs: lib/${folder} may import lib/${next}, which is not a folder of MAY_IMPORT`);
      visit(next, [...path, folder]);
    }
    state.set(folder, 'done');
  };
  for (const folder of FOLDERS) visit(folder, []);
})();

const KNOWN = `^lib/(${FOLDERS.join('|')})/`;

const folderRules = FOLDERS.map((folder) => ({
  name: `lib-${folder}-may-import`,
  comment: `lib/${folder} may import ${MAY_IMPORT[folder].length === 0 ? 'no other lib/ folder' : `lib/{${MAY_IMPORT[folder].join(',')}}`} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^lib/${folder}/` },
  to: { path: '^lib/', pathNot: `^lib/(${[folder, ...MAY_IMPORT[folder]].join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...folderRules,
    {
      name: 'lib-module-is-in-a-folder',
      comment: 'a lib/ module outside the folders of MAY_IMPORT (a new folder, a file directly under lib/) imports no lib/ code (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^lib/', pathNot: KNOWN },
      to: { path: '^lib/' },
    },
    {
      name: 'lib-module-outside-the-folders-is-not-imported',
      comment: 'nothing imports a lib/ module outside the folders of MAY_IMPORT: its folder gets its list first (.dependency-cruiser.cjs)',
      severity: 'error',
      from: {},
      module: { path: '^lib/', pathNot: KNOWN, numberOfDependentsMoreThan: 0 },
    },
    {
      name: 'lib-folders-through-their-door',
      comment: 'another lib/ folder reaches lib/<folder> only through lib/<folder>/index.ts (docs/architecture.md#one-door-per-folder)',
      severity: 'error',
      from: { path: '^lib/([^/]+)/' },
      to: { path: '^lib/[^/]+/', pathNot: ['^lib/$1/', '^lib/[^/]+/index\\.ts$'] },
    },
    {
      name: 'handlers-and-tools-through-the-doors',
      comment: 'handlers, infrastructure and benches reach lib/<folder> only through lib/<folder>/index.ts (docs/architecture.md#one-door-per-folder)',
      severity: 'error',
      from: { path: '^(functions|infra|bench)/' },
      to: { path: '^lib/[^/]+/', pathNot: '^lib/[^/]+/index\\.ts$' },
    },
    {
      name: 'letter-rooms-through-their-index',
      comment: 'a lib/letter room (intake, compose, render) is reached from outside it only through its index.ts',
      severity: 'error',
      from: { path: '^lib/letter/([^/]+)' },
      to: { path: '^lib/letter/(intake|compose|render)/', pathNot: ['^lib/letter/$1/', '^lib/letter/(intake|compose|render)/index\\.ts$'] },
    },
    {
      name: 'letter-rooms-import-no-pipeline',
      comment: "lib/letter's rooms never import the pipeline's own modules (lib/letter/*.ts): those import the rooms",
      severity: 'error',
      from: { path: '^lib/letter/(intake|compose|render)/' },
      to: { path: '^lib/letter/[^/]+\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle between modules',
      severity: 'error',
      from: { path: '^(lib|functions|infra)/' },
      to: { circular: true },
    },
    {
      name: 'lib-stays-production-code',
      comment: 'lib/ holds only what production runs: it never imports handlers, infrastructure, tests or benches',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra|test|bench|examples)/' },
    },
    {
      name: 'handlers-import-lib-only',
      comment: 'functions/ are thin handlers over lib/ (they never import infra/, tests or each other)',
      severity: 'error',
      from: { path: '^functions/([^/]+)/' },
      to: { path: '^(infra|test|bench|functions/(?!$1/))' },
    },
    {
      name: 'no-tests-in-production',
      comment: 'production and infrastructure code never import test code (benches may reuse test fixtures)',
      severity: 'error',
      from: { path: '^(lib|functions|infra)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|coverage)/' },
    parser: 'swc',
    moduleSystems: ['es6', 'cjs'],
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
