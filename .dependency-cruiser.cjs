/**
 * Which code may import which (docs/architecture.md#imports-point-one-way): `npm test` runs `depcruise`
 * with these rules.
 *
 * Every lib/ module sits in a ranked folder (none directly under lib/). Each folder says what it MAY
 * import: itself and the folders ranked below it. Anything else under lib/ (a higher folder, a folder
 * without a rank, a file directly under lib/) is a violation, so no two folders can import each other
 * and a new folder is caught as soon as anything imports it or it imports lib/. The leaves (errors,
 * config, logging, x12, upstream) import no domain folder. lib/ never reaches into the handlers, the
 * infrastructure, the tests or the benches.
 *
 * The swc parser does not see a type query (`import('../x.js').T`) in most places; the Biome plugin
 * lint/relative-type-query.grit forbids that form in lib/, functions/ and infra/, so every type-only
 * import is an `import type` declaration, which this check sees.
 */
const LIB_LAYERS = [
  'errors',
  'config',
  'logging',
  'x12',
  'upstream',
  'enrollment',
  'validation',
  'mock',
  'auth',
  'http',
  'payers',
  'runtime',
  'cob',
  'eligibility',
  'discovery',
  'batch',
  'fhir',
  'letter',
  'mcp',
];

const RANKED = `^lib/(${LIB_LAYERS.join('|')})/`;

const layerRules = LIB_LAYERS.map((folder, rank) => ({
  name: `lib-${folder}-imports-only-lower-layers`,
  comment: `lib/${folder} may import only ${rank === 0 ? 'itself' : `itself and lib/{${LIB_LAYERS.slice(0, rank).join(',')}}`} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^lib/${folder}/` },
  to: { path: '^lib/', pathNot: `^lib/(${LIB_LAYERS.slice(0, rank + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-module-is-ranked',
      comment: 'a lib/ module outside the folders of LIB_LAYERS (a new folder, a file directly under lib/) imports no lib/ code (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^lib/', pathNot: RANKED },
      to: { path: '^lib/' },
    },
    {
      name: 'lib-module-without-rank-is-not-imported',
      comment: 'nothing imports a lib/ module outside the folders of LIB_LAYERS: it gets a rank first (.dependency-cruiser.cjs)',
      severity: 'error',
      from: {},
      module: { path: '^lib/', pathNot: RANKED, numberOfDependentsMoreThan: 0 },
    },
    {
      name: 'letter-through-its-index',
      comment: 'other folders reach lib/letter only through lib/letter/index.ts (docs/letter.md#the-pipeline)',
      severity: 'error',
      from: { pathNot: '^lib/letter/' },
      to: { path: '^lib/letter/', pathNot: '^lib/letter/index\\.ts$' },
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
