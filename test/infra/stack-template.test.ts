/**
 * The synthesized stack against its recorded template (test/infra/fixtures/, written by
 * `npx tsx test/infra/stack-template.ts`). Logical ids are what CloudFormation keys resources by:
 * one that changes makes it delete the old resource and create a new one, which for the enrollment
 * table or a secret means losing data. So every logical id, type and property must stay as recorded.
 */
import { describe, it, expect, beforeAll } from '@jest/globals';
import { FUNCTION_NAMES } from '../../infra/cdk/functions.js';
import { readFixture, synthTemplate, TEMPLATE_VARIANTS, type TemplateVariant } from './stack-template.js';

type Resource = { Type: string; Properties?: Record<string, unknown> };
const resourcesOf = (template: Record<string, unknown>) => template.Resources as Record<string, Resource>;

describe.each(Object.keys(TEMPLATE_VARIANTS) as TemplateVariant[])('the %s stack template', (variant) => {
  let recorded: Record<string, unknown>;
  let synthesized: Record<string, unknown>;
  beforeAll(() => {
    recorded = readFixture(variant);
    synthesized = synthTemplate(variant);
  });

  it('has the recorded logical ids, each with its recorded type', () => {
    const typesOf = (template: Record<string, unknown>) => Object.fromEntries(Object.entries(resourcesOf(template)).map(([id, r]) => [id, r.Type]));
    expect(typesOf(synthesized)).toEqual(typesOf(recorded));
    expect(Object.keys(synthesized.Outputs as object).sort()).toEqual(Object.keys(recorded.Outputs as object).sort());
  });

  it('gives every resource its recorded properties, dependencies and deletion policies', () => {
    for (const [id, resource] of Object.entries(resourcesOf(recorded))) {
      expect({ id, ...resourcesOf(synthesized)[id] }).toEqual({ id, ...resource });
    }
  });

  it('is the recorded template as a whole (outputs, parameters, rules included)', () => {
    expect(synthesized).toEqual(recorded);
  });

  it('normalises only the function code\'s asset hashes', () => {
    const placeholders = JSON.stringify(synthesized).match(/<asset-hash>/g) ?? [];
    expect(placeholders).toHaveLength(FUNCTION_NAMES.length);
    const codeKeys = Object.values(resourcesOf(synthesized))
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => (r.Properties!.Code as { S3Key: string }).S3Key);
    expect(codeKeys).toEqual(FUNCTION_NAMES.map(() => '<asset-hash>.zip'));
  });
});
