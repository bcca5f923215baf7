/**
 * The stack's synthesized template, recorded (test/infra/fixtures/) so a refactor of infra/deploy can
 * prove it changes nothing CloudFormation sees: same logical ids, types, properties and policies.
 * A changed logical id makes CloudFormation replace the resource (a new, empty DynamoDB table or a
 * new secret), so the comparison is exact apart from what differs from machine to machine.
 *
 * Regenerate after an intended change to the stack, then review the fixture's diff:
 *   npx tsx test/infra/stack-template.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PROJECT_ROOT } from '../../infra/deploy/settings.js';
import { EligibilityStack } from '../../infra/deploy/stack.js';

export type TemplateJson = Record<string, unknown>;

/** The recorded variants: as cdk.json deploys it, and with CORS on for two origins (OPTIONS methods, env). */
export const TEMPLATE_VARIANTS = {
  default: { corsAllowedOrigins: '' },
  cors: { corsAllowedOrigins: 'https://app.example, https://admin.example' },
} as const satisfies Record<string, Record<string, unknown>>;
export type TemplateVariant = keyof typeof TEMPLATE_VARIANTS;

export const fixturePath = (variant: TemplateVariant) => fileURLToPath(new URL(`fixtures/stack-template.${variant}.json`, import.meta.url));

/**
 * As `cdk synth` runs the app, but with bundling skipped (no esbuild run): the CLI turns on each
 * resource's `aws:cdk:path` metadata, which also feeds the API deployment's logical id, so the
 * recorded template holds every construct path too. (The CLI's CDKMetadata resource, which only
 * reports the CDK version, is left out.)
 */
const SYNTH_CONTEXT = { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true };

/** The stack's name as `cdk synth` builds it (infra/deploy/app.ts). */
export const STACK_NAME = 'EligibilityService';

/**
 * The app and stack `cdk synth` would build for a variant, with cdk.json's context and `extra` over it.
 * Context is explicit, so CORS_ALLOWED_ORIGINS in the environment does not leak in. Synthesis (and the
 * CloudFormation validation it runs, unless `cloudFormationValidation` is false) happens when the
 * template is first read. The validation reports; it never changes the template.
 */
export function variantStack(
  variant: TemplateVariant,
  extra: Record<string, unknown> = {},
  { cloudFormationValidation = true }: { cloudFormationValidation?: boolean } = {},
): { app: App; stack: EligibilityStack } {
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({
    context: { ...cdkJson.context, ...SYNTH_CONTEXT, ...TEMPLATE_VARIANTS[variant], ...extra },
    builtinCloudFormationValidation: cloudFormationValidation,
  });
  return { app, stack: new EligibilityStack(app, STACK_NAME) };
}

/** The template `cdk synth` would write for the stack `EligibilityService`, with cdk.json's context. */
export function synthTemplate(variant: TemplateVariant): TemplateJson {
  return normaliseTemplate(Template.fromStack(variantStack(variant).stack).toJSON());
}

/**
 * What differs between machines, replaced by a placeholder: with bundling skipped an asset's hash
 * (the S3 key of a function's code) is computed from the bundling command, which names the checkout's
 * absolute path. Object keys are sorted so the fixture's diff shows only real changes.
 */
export function normaliseTemplate(value: unknown): any {
  if (typeof value === 'string') return value.replace(/\b[0-9a-f]{64}\b/g, '<asset-hash>');
  if (Array.isArray(value)) return value.map(normaliseTemplate);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, normaliseTemplate((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export const readFixture = (variant: TemplateVariant): TemplateJson => JSON.parse(readFileSync(fixturePath(variant), 'utf8')) as TemplateJson;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const variant of Object.keys(TEMPLATE_VARIANTS) as TemplateVariant[]) {
    writeFileSync(fixturePath(variant), `${JSON.stringify(synthTemplate(variant), null, 2)}\n`);
    console.log(`wrote ${fixturePath(variant)}`);
  }
}
