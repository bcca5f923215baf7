/**
 * Which code may import which (docs/architecture.md): `npm test` runs `depcruise` with these rules.
 *
 * lib/ folders are ranked from the leaves up; a folder may import only folders ranked below it, so no
 * two folders can import each other. The leaves (errors, config, logging, x12, upstream) import no
 * domain folder. lib/ never reaches into the handlers, the infrastructure, the tests or the benches.
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
  'batch',
  'fhir',
  'letter',
  'mcp',
];

const layerRules = LIB_LAYERS.map((folder, rank) => ({
  name: `lib-${folder}-imports-only-lower-layers`,
  comment: `lib/${folder} may import only ${rank === 0 ? 'no other lib folder' : `lib/{${LIB_LAYERS.slice(0, rank).join(',')}}`} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^lib/${folder}/` },
  to: { path: `^lib/(${LIB_LAYERS.slice(rank + 1).join('|') || '$^'})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-folder-is-layered',
      comment: 'every lib/ folder has a rank in LIB_LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: '^lib/([^/]+)/', pathNot: `^lib/(${LIB_LAYERS.join('|')})/` },
      to: { path: '^lib/' },
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
