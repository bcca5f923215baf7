import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../../infra/tools/openapi/document.js';
import { sandboxExamples } from '../../infra/tools/openapi/sandbox-examples.js';
import { ERROR_TABLE } from '../../lib/errors/index.js';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { validateBody } from '../../lib/validation/index.js';
import { SCHEMAS } from '../../lib/validation/schemas.js';
import { responseProblems, type ResponseSchemaName } from '../support/response-schemas.js';

/** openapi.json: fresh, complete, lint-clean, and its examples are what the service really takes and answers. */

const root = fileURLToPath(new URL('../../', import.meta.url));
const committedText = readFileSync(`${root}openapi.json`, 'utf8');
const committed = JSON.parse(committedText) as any;
const operations = (doc: any) =>
  Object.entries(doc.paths).flatMap(([path, item]: [string, any]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as any })));

describe('openapi.json', () => {
  it('is what `npm run openapi` generates from the schemas now (run it after changing a schema)', async () => {
    const fresh = `${JSON.stringify(buildOpenApiDocument(await sandboxExamples()), null, 2)}\n`;
    if (fresh !== committedText) throw new Error('openapi.json is stale: run `npm run openapi` and commit the result');
  });

  it('has fresh generated client types in examples/typescript/api.d.ts (openapi-typescript)', () => {
    const dir = mkdtempSync(`${tmpdir()}/openapi-types-`);
    try {
      const run = spawnSync(`${root}examples/typescript/node_modules/.bin/openapi-typescript`, [`${root}openapi.json`, '--output', `${dir}/api.d.ts`], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(0);
      if (readFileSync(`${dir}/api.d.ts`, 'utf8') !== readFileSync(`${root}examples/typescript/api.d.ts`, 'utf8')) {
        throw new Error('examples/typescript/api.d.ts is stale: run `npm run openapi` and commit the result');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('describes every route of the route table, and only those', () => {
    const documented = operations(committed)
      .filter(({ method }) => method !== 'options')
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(documented.sort()).toEqual(ROUTE_TABLE.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('names every error code of the error table outside the Error schema itself', () => {
    const { Error: _error, ...others } = committed.components.schemas;
    const text = JSON.stringify({ ...committed, components: { ...committed.components, schemas: others } });
    for (const code of Object.keys(ERROR_TABLE)) expect([code, text.includes(code)]).toEqual([code, true]);
    expect(committed.components.schemas.Error.properties.code.enum).toEqual(Object.keys(ERROR_TABLE));
  });

  it('documents exactly the request fields the validator accepts', () => {
    const bodies = { EligibilityRequest: SCHEMAS.eligibility, CobRequest: SCHEMAS.cob, LetterRequest: SCHEMAS.letter, InsuranceCardRequest: SCHEMAS.card };
    for (const [name, schema] of Object.entries(bodies)) {
      const documented = committed.components.schemas[name];
      expect(Object.keys(documented.properties)).toEqual(Object.keys(schema.properties));
      expect(documented.required).toEqual(schema.required);
      expect(documented.additionalProperties).toBe(false);
    }
  });

  it('has request examples the validator accepts', () => {
    const names = {
      '/api/eligibility/v1': 'eligibility',
      '/api/eligibility/cob/v1': 'cob',
      '/api/generate-letter': 'letter',
      '/api/insurance-card/v1': 'card',
    } as const;
    let count = 0;
    for (const [path, name] of Object.entries(names)) {
      for (const [label, example] of Object.entries(committed.paths[path].post.requestBody.content['application/json'].examples) as [string, any][]) {
        const result = validateBody(name, example.value);
        expect([path, label, result.ok ? 'valid' : result.error.errors]).toEqual([path, label, 'valid']);
        count += 1;
      }
    }
    expect(count).toBeGreaterThanOrEqual(15);
  });

  it('has response examples that match the response schemas', () => {
    const success: Record<string, ResponseSchemaName> = {
      checkEligibility: 'eligibility',
      checkCoordinationOfBenefits: 'cob',
      generateLetter: 'letter',
      readInsuranceCard: 'card',
      getHealth: 'health',
      searchPayers: 'payerPage',
      getPayer: 'payer',
    };
    let count = 0;
    for (const { op } of operations(committed)) {
      for (const [status, response] of Object.entries(op.responses) as [string, any][]) {
        const content = response.content?.['application/json'];
        if (!content) continue;
        const examples = content.examples ? Object.values(content.examples).map((e: any) => e.value) : [];
        for (const value of examples) {
          const schema: ResponseSchemaName = status === '200' ? success[op.operationId]! : 'code' in value ? 'error' : 'messageOnly';
          expect(responseProblems(schema, value)).toEqual([]);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(30);
  });

  it("lints clean with Redocly's recommended rules (warnings count as errors)", () => {
    const lint = spawnSync(`${root}node_modules/.bin/redocly`, ['lint', 'openapi.json', '--config', 'redocly.yaml'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    });
    expect([lint.status, lint.status === 0 ? '' : `${lint.stdout}\n${lint.stderr}`]).toEqual([0, '']);
  }, 60_000);
});
