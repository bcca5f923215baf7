import { describe, it, expect, beforeAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { AUTHORIZER_CACHE_SECONDS } from '../../lib/auth/tokens.js';
import { TOKEN_STORE_CACHE_SECONDS } from '../../lib/config/secrets.js';
import { STATE_INDEX } from '../../lib/batch/adapters/dynamodb-rows.js';
import { BATCH_MAX_RECEIVE_COUNT } from '../../infra/deploy/constructs/batch-stores.js';
import { FUNCTION_NAMES as FUNCTIONS, LETTER_BUDGET_SECONDS } from '../../infra/deploy/functions.js';
import { WEBHOOK_DEADLINE_MS } from '../../lib/batch/webhook.js';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { gatewayResponses } from '../../infra/deploy/constructs/gateway-responses.js';
import { ACCESS_LOG_FIELDS } from '../../infra/deploy/constructs/rest-api.js';
import { PROJECT_ROOT, type UsagePlanSettings } from '../../infra/deploy/settings.js';
import type { EligibilityStack } from '../../infra/deploy/stack.js';
import { normaliseTemplate, readFixture, STACK_NAME, TEMPLATE_VARIANTS, type TemplateVariant, variantStack } from './stack-template.js';

const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, any> };

/**
 * Synthesis is what costs here: each one also runs CloudFormation's own validation of the template
 * (cdk.json turns on validateAgainstDefaultRules, which makes a finding fail the synth), and the first
 * one in a file loads its engine. So each distinct stack is synthesised once for the whole file and
 * every check reads it: the stack as `cdk synth` builds it, validation and nag packs included, serves
 * the checks of the deployed template, the batch checks and the comparison with its recorded
 * template; the CORS variant serves the CORS checks and its own comparison; one stack with changed
 * context serves the checks that context reaches the functions (each override lands on a different
 * property). Those two are synthesised without CloudFormation's validation, which reports and never
 * changes a template: the CORS variant's template must equal its recorded fixture exactly, and the
 * fixture is written (stack-template.ts) with the validation on, so any change to it passes the
 * validation before it can be recorded; the changed-context stack differs from the deployed one only
 * in three values its checks read, and is validated nowhere else. `cdk synth` runs the validation on
 * every deploy. The batch checks live in this file too, so the CDK library and the validation engine
 * load once.
 */
type Synthesized = { app: App; stack: EligibilityStack; template: Template };
const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
};
const SYNTHESIZED: Record<TemplateVariant, () => Synthesized> = {
  default: once(() => {
    const { app, stack } = variantStack('default');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new HIPAASecurityChecks(app));
    return { app, stack, template: Template.fromStack(stack) };
  }),
  cors: once(() => {
    const { app, stack } = variantStack('cors', {}, { cloudFormationValidation: false });
    return { app, stack, template: Template.fromStack(stack) };
  }),
};
const withOtherContext = once(() =>
  Template.fromStack(
    variantStack(
      'default',
      { letterModel: 'claude-test-model', stediBaseUrl: 'https://stedi.example', batchMaxConcurrency: 4 },
      { cloudFormationValidation: false },
    ).stack,
  ),
);

let app: App;
let stack: EligibilityStack;
let template: Template;

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ app, stack, template } = SYNTHESIZED.default());
  resources = template.toJSON().Resources;
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalIdOf = (prefix: string, type: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]![0];
};
const pascal = (name: string) =>
  name
    .split('-')
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
const functionId = (name: string) => logicalIdOf(`${pascal(name)}Function`, 'AWS::Lambda::Function');

/** Every IAM statement that reaches a function's role, from any policy resource. */
function statementsOf(name: string): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] {
  const roleRef = resources[functionId(name)]!.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::ManagedPolicy' || r.Type === 'AWS::IAM::Policy')
    .filter((r) => (r.Properties.Roles ?? []).some((ref: { Ref: string }) => ref.Ref === roleRef))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}
const actionsOf = (name: string) => statementsOf(name).flatMap((s) => [s.Action].flat());
const resourcesFor = (name: string, action: string) =>
  JSON.stringify(
    statementsOf(name)
      .filter((s) => [s.Action].flat().includes(action))
      .map((s) => s.Resource),
  );

/** Every REST method as "<METHOD> <path>" with its properties, paths rebuilt from the resource tree. */
function restMethods(res: Record<string, Resource> = resources) {
  const pathOf = (ref: unknown): string => {
    if (typeof ref === 'object' && ref !== null && 'Ref' in ref) {
      const r = res[(ref as { Ref: string }).Ref]!;
      const parent = pathOf(r.Properties.ParentId);
      return `${parent === '/' ? '' : parent}/${r.Properties.PathPart}`;
    }
    return '/';
  };
  const out: Record<string, Record<string, any>> = {};
  for (const r of Object.values(res).filter((x) => x.Type === 'AWS::ApiGateway::Method'))
    out[`${r.Properties.HttpMethod} ${pathOf(r.Properties.ResourceId)}`] = r.Properties;
  return out;
}
const targetOf = (method: Record<string, any>) => JSON.stringify(method.Integration.Uri).match(/"Fn::GetAtt":\["([A-Za-z0-9]+)","Arn"\]/)![1];
const ROUTE_PATHS: string[] = [...new Set(ROUTE_TABLE.map((r) => r.path))];
const RESOURCE_PATHS = [
  '/',
  '/api',
  '/api/eligibility',
  '/api/eligibility/cob',
  '/api/eligibility/batch',
  '/api/fhir',
  '/api/fhir/r4',
  '/api/fhir/r4/CoverageEligibilityRequest',
  '/api/insurance-discovery',
  '/api/medicare',
  '/api/medicare/mbi',
  '/{proxy+}',
  ...ROUTE_PATHS,
];
/** Fed by SQS event source mappings, not by the gateway (docs/batch.md#engine). */
const QUEUE_CONSUMERS = ['batch-worker', 'batch-webhook'];

describe('EligibilityStack', () => {
  it('serves a regional REST API whose usage-plan keys come from the authorizer', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] }, ApiKeySourceType: 'AUTHORIZER' });
  });

  it("serves every entry of the route table from its own function: POSTs behind the authorizer with the client's usage-plan key, the public GETs open", () => {
    const methods = restMethods();
    const authorizerId = logicalIdOf('BearerTokenAuthorizer', 'AWS::ApiGateway::Authorizer');
    expect(ROUTE_TABLE.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        'POST /api/eligibility/v1',
        'POST /api/eligibility/cob/v1',
        'POST /api/generate-letter',
        'POST /api/fhir/r4/CoverageEligibilityRequest/$submit',
        'GET /api/payers',
        'GET /api/payers/{payerId}',
        'POST /api/mcp',
        'GET /api/health',
        'HEAD /api/health',
        'GET /api/openapi.json',
        'GET /api/docs',
        'GET /api/docs/scalar.js',
        'POST /api/eligibility/batch/v1',
        'GET /api/eligibility/batch/v1/{batchId}',
        'DELETE /api/eligibility/batch/v1/{batchId}',
        'GET /api/eligibility/batch/v1/{batchId}/items',
        'POST /api/insurance-discovery/v1',
        'GET /api/insurance-discovery/v1/{discoveryId}',
        'POST /api/medicare/mbi/v1',
      ].sort(),
    );
    for (const route of ROUTE_TABLE) {
      const method = methods[`${route.method} ${route.path}`]!;
      expect(method.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(targetOf(method)).toBe(functionId(route.function));
      if (route.auth) expect(method).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId }, ApiKeyRequired: true });
      else expect(method).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
    }
  });

  it("sends every other method and path to the not-found function: 405 on a route's path without a token, 404 after authorization", () => {
    const methods = restMethods();
    const anyRoutes = Object.keys(methods)
      .filter((k) => k.startsWith('ANY '))
      .map((k) => k.slice(4))
      .sort();
    expect(anyRoutes).toEqual([...RESOURCE_PATHS].sort());
    for (const path of anyRoutes) {
      const method = methods[`ANY ${path}`]!;
      expect(targetOf(method)).toBe(functionId('not-found'));
      // On a route's own path the only answer is 405 + Allow, which needs no token (as the local server).
      if (ROUTE_PATHS.includes(path)) expect(method).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
      else expect(method).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
    }
    // No MOCK integrations (the root's default ANY would answer an empty 200).
    expect(Object.values(methods).filter((m) => m.Integration.Type !== 'AWS_PROXY')).toEqual([]);
    // Without CORS no OPTIONS method exists (ANY answers OPTIONS like any other method).
    expect(Object.keys(methods).filter((k) => k.startsWith('OPTIONS '))).toEqual([]);
    // One API-scoped invoke permission for the not-found function instead of one per method.
    const notFoundPermissions = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.FunctionName['Fn::GetAtt']?.[0] === functionId('not-found'));
    expect(notFoundPermissions).toHaveLength(1);
    expect(JSON.stringify(notFoundPermissions[0]![1].Properties.SourceArn)).toContain('/*/*/*');
  });

  it('streams the letter integration through the Lambda response-streaming API with a budget past 30 s', () => {
    const letter = restMethods()['POST /api/generate-letter']!;
    expect(letter.Integration.ResponseTransferMode).toBe('STREAM');
    const uri = JSON.stringify(letter.Integration.Uri);
    expect(uri).toContain('2021-11-15/functions/');
    expect(uri).toContain('/response-streaming-invocations');
    const letterTimeout = resources[functionId('letter')]!.Properties.Timeout as number;
    expect(letterTimeout).toBeGreaterThan(LETTER_BUDGET_SECONDS);
    expect(letterTimeout).toBeLessThanOrEqual(LETTER_BUDGET_SECONDS + 10);
    expect(letter.Integration.TimeoutInMillis).toBeGreaterThan(letterTimeout * 1000);
    expect(letter.Integration.TimeoutInMillis).toBeLessThanOrEqual(15 * 60 * 1000);
    // The buffered routes keep API Gateway's default 29 s.
    for (const route of ['POST /api/eligibility/v1', 'POST /api/eligibility/cob/v1']) {
      const method = restMethods()[route]!;
      expect(method.Integration.ResponseTransferMode).toBeUndefined();
      expect(JSON.stringify(method.Integration.Uri)).toContain('2015-03-31/functions/');
    }
  });

  it('configures a REQUEST authorizer on the Authorization header whose cache plus the token-store cache is at most 5 minutes', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_SECONDS,
      AuthorizerUri: Match.objectLike({
        'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [functionId('authorizer'), 'Arn'] })])]),
      }),
    });
    expect(cdkJson.context.authorizerCacheSeconds + TOKEN_STORE_CACHE_SECONDS).toBeLessThanOrEqual(300);
    expect(() => variantStack('default', { authorizerCacheSeconds: 300 })).toThrow(/authorizerCacheSeconds/);
  });

  it('answers 401/403/429 from the gateway with the exact bodies, never cached', () => {
    const responses: Record<string, Record<string, any>> = Object.fromEntries(
      ofType('AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties.ResponseType, r.Properties]),
    );
    const exact: Record<string, [string, string]> = {
      UNAUTHORIZED: ['401', '{"message":"Unauthorized"}'],
      ACCESS_DENIED: ['403', '{"message":"Forbidden"}'],
      INVALID_API_KEY: ['403', '{"message":"Forbidden"}'],
      WAF_FILTERED: ['403', '{"message":"Forbidden"}'],
      THROTTLED: ['429', '{"message":"Too Many Requests"}'],
      QUOTA_EXCEEDED: ['429', '{"message":"Limit Exceeded"}'],
    };
    for (const [type, [status, body]] of Object.entries(exact)) {
      expect({ type, status: responses[type]?.StatusCode, body: responses[type]?.ResponseTemplates['application/json'] }).toEqual({ type, status, body });
    }
    expect(responses.THROTTLED.ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
    // RFC 6750: every 401 (all routes take a bearer token, /api/mcp among them) names the scheme.
    expect(responses.UNAUTHORIZED.ResponseParameters['gatewayresponse.header.WWW-Authenticate']).toBe("'Bearer'");
    // The API's own error shape for what the gateway decides alone.
    expect(responses.MISSING_AUTHENTICATION_TOKEN.StatusCode).toBe('404');
    expect(JSON.parse(responses.MISSING_AUTHENTICATION_TOKEN.ResponseTemplates['application/json'])).toEqual({
      message: expect.any(String),
      code: 'NOT_FOUND',
      requestId: '$context.requestId',
    });
    expect(responses.AUTHORIZER_FAILURE.StatusCode).toBe('500');
    expect(JSON.parse(responses.AUTHORIZER_FAILURE.ResponseTemplates['application/json']).code).toBe('INTERNAL_ERROR');
    expect(responses.DEFAULT_4XX.StatusCode).toBeUndefined();
    for (const response of Object.values(responses)) {
      expect(response.ResponseParameters['gatewayresponse.header.Cache-Control']).toBe("'no-store'");
      expect(response.ResponseParameters['gatewayresponse.header.x-request-id']).toBe('context.requestId');
      expect(response.ResponseParameters).not.toHaveProperty('gatewayresponse.header.Access-Control-Allow-Origin');
    }
    // A gateway response can name one origin, never choose among several.
    expect(gatewayResponses(['https://app.example']).UNAUTHORIZED!.headers['Access-Control-Allow-Origin']).toBe("'https://app.example'");
    expect(gatewayResponses(['https://app.example', 'https://b.example']).UNAUTHORIZED!.headers).not.toHaveProperty('Access-Control-Allow-Origin');
  });

  it('runs every function on Node 22 / arm64 with X-Ray and its own encrypted log group; behind the gateway only the letter runs past 29 s', () => {
    const fns = ofType('AWS::Lambda::Function');
    expect(fns).toHaveLength(FUNCTIONS.length);
    for (const [, fn] of fns) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' }, Handler: 'index.handler' });
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    for (const name of FUNCTIONS.filter((n) => n !== 'letter' && !QUEUE_CONSUMERS.includes(n)))
      expect(resources[functionId(name)]!.Properties.Timeout).toBeLessThanOrEqual(29);
    expect(resources[functionId('authorizer')]!.Properties.Timeout).toBe(5);
    expect(resources[functionId('letter')]!.Properties.MemorySize).toBeGreaterThan(resources[functionId('eligibility')]!.Properties.MemorySize);
  });

  it('gives each function only its own configuration', () => {
    const env = (name: string) => resources[functionId(name)]!.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(env('authorizer')).sort()).toEqual(['API_TOKENS_SECRET_ARN', 'NODE_OPTIONS', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
    for (const name of ['eligibility', 'cob', 'fhir']) {
      expect(env(name)).toMatchObject({
        STEDI_BASE_URL: cdkJson.context.stediBaseUrl,
        ENROLLMENTS_TABLE: { Ref: logicalIdOf('EnrollmentsTable', 'AWS::DynamoDB::Table') },
      });
      expect(env(name)).not.toHaveProperty('ANTHROPIC_SECRET_ARN');
    }
    expect(env('letter')).toMatchObject({ LETTER_MODEL: cdkJson.context.letterModel, POWERTOOLS_LOG_LEVEL: 'INFO' });
    expect(env('letter')).not.toHaveProperty('STEDI_SECRET_ARN');
    expect(env('letter')).not.toHaveProperty('ENROLLMENTS_TABLE');
    const idempotencyTable = { Ref: logicalIdOf('IdempotencyTable', 'AWS::DynamoDB::Table') };
    for (const name of ['eligibility', 'cob', 'fhir', 'letter']) expect(env(name).IDEMPOTENCY_TABLE).toEqual(idempotencyTable);
    for (const name of ['authorizer', 'not-found', 'health', 'openapi']) expect(env(name)).not.toHaveProperty('IDEMPOTENCY_TABLE');
    // CORS is off unless configured.
    for (const name of FUNCTIONS) expect(env(name)).not.toHaveProperty('CORS_ALLOWED_ORIGINS');
  });

  it('takes LETTER_MODEL and the Stedi base URL from context', () => {
    const t = withOtherContext();
    t.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ LETTER_MODEL: 'claude-test-model' }) } });
    t.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ STEDI_BASE_URL: 'https://stedi.example' }) } });
  });

  it('grants each role exactly what its function reads', () => {
    const tokens = logicalIdOf('ApiTokensSecret', 'AWS::SecretsManager::Secret');
    const stedi = logicalIdOf('StediApiKeySecret', 'AWS::SecretsManager::Secret');
    const anthropic = logicalIdOf('AnthropicApiKeySecret', 'AWS::SecretsManager::Secret');
    const table = logicalIdOf('EnrollmentsTable', 'AWS::DynamoDB::Table');
    const idempotency = logicalIdOf('IdempotencyTable', 'AWS::DynamoDB::Table');
    const secretsRead = (name: string) => resourcesFor(name, 'secretsmanager:GetSecretValue');

    expect(secretsRead('authorizer')).toContain(tokens);
    for (const id of [stedi, anthropic]) expect(secretsRead('authorizer')).not.toContain(id);
    for (const name of ['eligibility', 'cob', 'fhir']) {
      expect(secretsRead(name)).toContain(stedi);
      for (const id of [tokens, anthropic]) expect(secretsRead(name)).not.toContain(id);
      expect(resourcesFor(name, 'dynamodb:GetItem')).toContain(table);
      expect(resourcesFor(name, 'dynamodb:PutItem')).not.toContain(table);
    }
    // The four POST functions: Powertools idempotency's four item calls on their own table, nothing more.
    for (const name of ['eligibility', 'cob', 'fhir', 'letter']) {
      expect([...new Set(actionsOf(name).filter((a) => a.startsWith('dynamodb:')))].sort()).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
      ]);
      for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']) {
        expect(resourcesFor(name, action)).toContain(idempotency);
        expect(resourcesFor(name, action)).not.toContain(table);
      }
      expect(resourcesFor(name, 'kms:GenerateDataKey')).toContain(logicalIdOf('DataKey', 'AWS::KMS::Key'));
    }
    expect(resourcesFor('letter', 'dynamodb:GetItem')).not.toContain(table);
    expect(secretsRead('letter')).toContain(anthropic);
    for (const id of [tokens, stedi]) expect(secretsRead('letter')).not.toContain(id);
    expect(actionsOf('authorizer').some((a) => a.startsWith('dynamodb:'))).toBe(false);
    for (const name of ['not-found', 'health', 'openapi']) {
      expect(actionsOf(name).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    }

    // No wildcard actions anywhere; KMS use only through the services that need it.
    for (const name of FUNCTIONS) {
      expect(actionsOf(name).some((a) => a.includes('*'))).toBe(false);
      for (const s of statementsOf(name).filter((st) => [st.Action].flat().some((a) => a.startsWith('kms:')))) {
        expect(JSON.stringify(s.Condition)).toContain('kms:ViaService');
      }
    }
  });

  it('uses no inline policies and no AWS-managed policies on function roles', () => {
    expect(ofType('AWS::IAM::Policy')).toHaveLength(0);
    for (const name of FUNCTIONS) {
      const roleId = resources[functionId(name)]!.Properties.Role['Fn::GetAtt'][0] as string;
      expect(resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('stores enrollments in an on-demand, PITR, KMS-encrypted, deletion-protected table keyed by providerId', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: {
        KeySchema: [{ AttributeName: 'providerId', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'providerId', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [logicalIdOf('DataKey', 'AWS::KMS::Key'), 'Arn'] } },
        DeletionProtectionEnabled: true,
      },
    });
    template.resourceCountIs('AWS::Backup::BackupSelection', 1);
    // The backup plan covers the enrollment table only (the idempotency table's answers must not outlive 24 h).
    expect(JSON.stringify(ofType('AWS::Backup::BackupSelection')[0]![1].Properties)).not.toContain(logicalIdOf('IdempotencyTable', 'AWS::DynamoDB::Table'));
  });

  it("keeps idempotent answers in their own KMS-encrypted table with Powertools' key and TTL attribute and a one-day PITR window", () => {
    const [, idempotency] = ofType('AWS::DynamoDB::Table').find(([id]) => id.startsWith('IdempotencyTable'))!;
    expect(idempotency.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 1 },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [logicalIdOf('DataKey', 'AWS::KMS::Key'), 'Arn'] } },
    });
  });

  it('encrypts secrets and logs with one rotating customer-managed key and keeps logs for the configured period', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    const keyArn = { 'Fn::GetAtt': [logicalIdOf('DataKey', 'AWS::KMS::Key'), 'Arn'] };
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(3);
    for (const [, s] of secrets) expect(s.Properties.KmsKeyId).toEqual(keyArn);
    const logGroups = ofType('AWS::Logs::LogGroup');
    // One per function, the access log and the WAF log.
    expect(logGroups).toHaveLength(FUNCTIONS.length + 2);
    for (const [, lg] of logGroups) {
      expect(lg.Properties.RetentionInDays).toBe(cdkJson.context.logRetentionDays);
      expect(lg.Properties.KmsKeyId).toEqual(keyArn);
    }
    // The tokens secret starts as an empty client list in the format the authorizer parses.
    expect(resources[logicalIdOf('ApiTokensSecret', 'AWS::SecretsManager::Secret')]!.Properties.SecretString).toBe('{"clients":[]}');
  });

  it('writes JSON access logs with request id, route template, status and latency but no bodies, traces and throttles the stage', () => {
    const stage = ofType('AWS::ApiGateway::Stage');
    expect(stage).toHaveLength(1);
    const props = stage[0]![1].Properties;
    expect(props).toMatchObject({ StageName: cdkJson.context.stageName, TracingEnabled: true });
    expect(props.MethodSettings).toEqual([
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        ThrottlingRateLimit: cdkJson.context.throttleRateLimit,
        ThrottlingBurstLimit: cdkJson.context.throttleBurstLimit,
      }),
    ]);
    // Execution logs with data trace would log bodies.
    expect(props.MethodSettings[0].DataTraceEnabled).not.toBe(true);
    expect(JSON.stringify(props.AccessLogSetting.DestinationArn)).toContain(`":log-group:",{"Ref":"${logicalIdOf('ApiAccessLogs', 'AWS::Logs::LogGroup')}"}`);
    const format = JSON.parse(props.AccessLogSetting.Format) as Record<string, string>;
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      route: '$context.httpMethod $context.resourcePath',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
    });
    expect(props.AccessLogSetting.Format).not.toMatch(/body|header|querystring|\$context\.path\b/i);
  });

  it('defines the standard and high usage plans from cdk.json, each with throttle, monthly quota and a letter limit on the stage', () => {
    const plans = Object.fromEntries(ofType('AWS::ApiGateway::UsagePlan').map(([, r]) => [r.Properties.UsagePlanName as string, r.Properties]));
    expect(Object.keys(plans).sort()).toEqual([`${STACK_NAME}-high`, `${STACK_NAME}-standard`]);
    const stageId = logicalIdOf('RestApiDeploymentStage', 'AWS::ApiGateway::Stage');
    for (const name of ['standard', 'high']) {
      const want = cdkJson.context.usagePlans[name] as UsagePlanSettings;
      const plan = plans[`${STACK_NAME}-${name}`]!;
      expect(plan.Throttle).toEqual({ RateLimit: want.rateLimit, BurstLimit: want.burstLimit });
      expect(plan.Quota).toEqual({ Limit: want.monthlyQuota, Period: 'MONTH' });
      expect(plan.ApiStages).toHaveLength(1);
      expect(plan.ApiStages[0].Stage).toEqual({ Ref: stageId });
      expect(plan.ApiStages[0].Throttle).toEqual({ '/api/generate-letter/POST': { RateLimit: want.letterRateLimit, BurstLimit: want.letterBurstLimit } });
    }
    expect(cdkJson.context.usagePlans.high.rateLimit).toBeGreaterThan(cdkJson.context.usagePlans.standard.rateLimit);
    expect(template.toJSON().Outputs.UsagePlanIds.Value['Fn::Join'][1]).toHaveLength(2);
    expect(() => variantStack('default', { usagePlans: { standard: { rateLimit: 1 } } })).toThrow(/usagePlans\.standard\.burstLimit/);
  });

  it('attaches a WAF web ACL to the stage: rate per IP, AWS common (body size only counted) and known bad inputs, size limit outside the letter route', () => {
    const [aclId, acl] = ofType('AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const rules = Object.fromEntries((acl.Properties.Rules as any[]).map((r) => [r.Name, r]));
    expect(Object.keys(rules)).toEqual([
      'PerIpRateLimit',
      'AWSManagedRulesCommonRuleSet',
      'BodySizeOutsideLetterRoute',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    expect(rules.PerIpRateLimit.Statement.RateBasedStatement).toMatchObject({ Limit: cdkJson.context.wafRateLimitPerIp, AggregateKeyType: 'IP' });
    expect(rules.PerIpRateLimit.Action.Block.CustomResponse).toMatchObject({ ResponseCode: 429, CustomResponseBodyKey: 'tooManyRequests' });
    expect(JSON.parse(acl.Properties.CustomResponseBodies.tooManyRequests.Content)).toEqual({ message: 'Too Many Requests' });
    expect(rules.AWSManagedRulesCommonRuleSet.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
      RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
    });
    expect(rules.AWSManagedRulesKnownBadInputsRuleSet.Statement.ManagedRuleGroupStatement).toEqual({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesKnownBadInputsRuleSet',
    });
    // The replacement size rule: over 8 KB (oversize counts as a match) and not the letter path → 413.
    const [size, notLetter] = rules.BodySizeOutsideLetterRoute.Statement.AndStatement.Statements;
    expect(size.SizeConstraintStatement).toMatchObject({ FieldToMatch: { Body: { OversizeHandling: 'MATCH' } }, ComparisonOperator: 'GT', Size: 8192 });
    expect(notLetter.NotStatement.Statement.ByteMatchStatement).toMatchObject({
      FieldToMatch: { UriPath: {} },
      PositionalConstraint: 'ENDS_WITH',
      SearchString: '/api/generate-letter',
    });
    expect(rules.BodySizeOutsideLetterRoute.Action.Block.CustomResponse.ResponseCode).toBe(413);
    // A 4 MiB PDF is ~5.6 MB of base64; nothing else in the ACL looks at body size.
    expect(JSON.stringify(acl.Properties.Rules).match(/SizeConstraintStatement/g)).toHaveLength(1);

    const association = ofType('AWS::WAFv2::WebACLAssociation')[0]![1].Properties;
    expect(association.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(association.ResourceArn)).toContain(logicalIdOf('RestApiDeploymentStage', 'AWS::ApiGateway::Stage'));
    const logging = ofType('AWS::WAFv2::LoggingConfiguration')[0]![1].Properties;
    expect(logging.ResourceArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(logging.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
    expect(JSON.stringify(logging.LogDestinationConfigs)).toContain(`log-group:aws-waf-logs-${STACK_NAME}`);
  });

  it('with CORS_ALLOWED_ORIGINS configured, answers OPTIONS on every route without authentication and tells the functions', () => {
    // The CORS variant configures TEMPLATE_VARIANTS.cors: 'https://app.example, https://admin.example'.
    const { app: corsApp, template: corsTemplate } = SYNTHESIZED.cors();
    const corsResources = corsTemplate.toJSON().Resources as Record<string, Resource>;
    const methods = restMethods(corsResources);
    const options = Object.keys(methods)
      .filter((k) => k.startsWith('OPTIONS '))
      .map((k) => k.slice(8))
      .sort();
    expect(options).toEqual([...new Set(ROUTE_PATHS)].sort());
    for (const path of options) {
      expect(methods[`OPTIONS ${path}`]).toMatchObject({ AuthorizationType: 'NONE', ApiKeyRequired: false });
      expect(JSON.stringify(methods[`OPTIONS ${path}`]!.Integration.Uri)).toContain('NotFoundFunction');
    }
    const fns = Object.values(corsResources).filter((r) => r.Type === 'AWS::Lambda::Function');
    const withCors = fns.filter((f) => f.Properties.Environment.Variables.CORS_ALLOWED_ORIGINS === 'https://app.example,https://admin.example');
    // Every function that answers HTTP but the authorizer (the queue consumers answer none).
    expect(withCors).toHaveLength(FUNCTIONS.length - 1 - QUEUE_CONSUMERS.length);
    const report = new AwsSolutionsChecks().validateScope(corsApp);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('outputs the API URL, table names, secret ARNs and usage plan ids', () => {
    expect(Object.keys(template.toJSON().Outputs).sort()).toEqual([
      'AnthropicSecretArn',
      'ApiTokensSecretArn',
      'ApiUrl',
      'BatchItemDeadLettersUrl',
      'EnrollmentsTableName',
      'IdempotencyTableName',
      'StediSecretArn',
      'UsagePlanIds',
    ]);
  });

  it('passes the AwsSolutions and HIPAA Security packs with no unacknowledged finding', () => {
    for (const pack of [new AwsSolutionsChecks(), new HIPAASecurityChecks()]) {
      const report = pack.validateScope(app);
      expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(',')}`)).toEqual([]);
      expect(report.success).toBe(true);
    }
    const annotations = Annotations.fromStack(stack);
    for (const pattern of ['AwsSolutions-.*', 'HIPAA\\.Security-.*']) {
      expect(annotations.findError('*', Match.stringLikeRegexp(pattern))).toEqual([]);
      expect(annotations.findWarning('*', Match.stringLikeRegexp(pattern))).toEqual([]);
    }
    // Synthesis runs the registered packs; an unacknowledged error finding would throw here.
    expect(() => app.synth({ force: true })).not.toThrow();
  });

  it('would report an unencrypted, unrotated secret (the packs are live)', () => {
    const probeApp = new App();
    const probe = new Stack(probeApp, 'Probe');
    new Secret(probe, 'Plain');
    const found = new HIPAASecurityChecks().validateScope(probeApp).violations.map((v) => v.ruleName);
    expect(found).toEqual(expect.arrayContaining(['HIPAA.Security-SecretsManagerUsingKMSKey', 'HIPAA.Security-SecretsManagerRotationEnabled']));
  });
});

/**
 * Batch in the stack (docs/batch.md#engine): the worker's event source mapping is capped at
 * batchMaxConcurrency with partial batch failures, both queues redrive to their dead-letter queues,
 * and the table and every queue are encrypted with the stack's customer-managed key.
 */

describe('batch in the stack', () => {
  it('feeds the worker from the item queue with MaximumConcurrency = batchMaxConcurrency (default 10) and partial batch failures', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
    const worker = mappings.find((m) => JSON.stringify(m.FunctionName).includes('BatchWorkerFunction'))!;
    expect(worker).toMatchObject({ ScalingConfig: { MaximumConcurrency: 10 }, FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 10 });
    expect(worker.EventSourceArn).toEqual({ 'Fn::GetAtt': [logicalIdOf('BatchItemQueue', 'AWS::SQS::Queue'), 'Arn'] });
    const webhook = mappings.find((m) => JSON.stringify(m.FunctionName).includes('BatchWebhookFunction'))!;
    // One record per invocation: a receiver that hangs until the deadline fails no other delivery (docs/batch.md#webhook).
    expect(webhook).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 1, ScalingConfig: { MaximumConcurrency: 10 } });
    const webhookTimeout = resources[functionId('batch-webhook')]!.Properties.Timeout as number;
    expect(webhookTimeout).toBeGreaterThan(WEBHOOK_DEADLINE_MS / 1000);
    expect(webhookTimeout).toBeLessThanOrEqual(WEBHOOK_DEADLINE_MS / 1000 + 5);
    expect(webhook.EventSourceArn).toEqual({ 'Fn::GetAtt': [logicalIdOf('BatchWebhookQueue', 'AWS::SQS::Queue'), 'Arn'] });
    const scaled = Object.values(withOtherContext().toJSON().Resources as Record<string, Resource>).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(r.Properties.FunctionName).includes('BatchWorkerFunction'),
    );
    expect(scaled.map((r) => r.Properties.ScalingConfig)).toEqual([{ MaximumConcurrency: 4 }]);
    expect(() => variantStack('default', { batchMaxConcurrency: 1 })).toThrow(/batchMaxConcurrency/);
  });

  it('redrives both queues to their own dead-letter queues after the receive count', () => {
    for (const [queue, deadLetters] of [
      ['BatchItemQueue', 'BatchItemDeadLetters'],
      ['BatchWebhookQueue', 'BatchWebhookDeadLetters'],
    ] as const) {
      const props = resources[logicalIdOf(queue, 'AWS::SQS::Queue')]!.Properties;
      expect(props.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(deadLetters, 'AWS::SQS::Queue'), 'Arn'] },
        maxReceiveCount: BATCH_MAX_RECEIVE_COUNT,
      });
    }
    // An item backed off for 8 h (30 s doubling to 15 min) is received about 36 times: it must not be taken for poison.
    expect(BATCH_MAX_RECEIVE_COUNT).toBeGreaterThan(40);
  });

  it('encrypts the batch table and every queue with the stack’s customer-managed key, expires items by TTL and refuses plain HTTP', () => {
    const key = { 'Fn::GetAtt': [logicalIdOf('DataKey', 'AWS::KMS::Key'), 'Arn'] };
    const table = resources[logicalIdOf('BatchTable', 'AWS::DynamoDB::Table')]!.Properties;
    expect(table.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: key });
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    const queues = ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(4);
    for (const [, queue] of queues) expect(queue.Properties.KmsMasterKeyId).toEqual(key);
    const policies = ofType('AWS::SQS::QueuePolicy').map(([, r]) => JSON.stringify(r.Properties.PolicyDocument));
    expect(policies).toHaveLength(4);
    for (const policy of policies) expect(policy).toContain('"aws:SecureTransport":"false"');
  });

  it('indexes the batch table’s items by state, and lets the items route query that index (`?state=`)', () => {
    const table = resources[logicalIdOf('BatchTable', 'AWS::DynamoDB::Table')]!.Properties;
    expect(table.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: STATE_INDEX,
        KeySchema: [
          { AttributeName: 'stateKey', KeyType: 'HASH' },
          { AttributeName: 'index', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      },
    ]);
    expect(resourcesFor('batch', 'dynamodb:Query')).toContain(`/index/${STATE_INDEX}`);
  });

  it('lets the worker make every table call its path makes (dynalite checks no permission, so only this test can tell)', () => {
    const table = logicalIdOf('BatchTable', 'AWS::DynamoDB::Table');
    // batchAndSubmitted: BatchGetItem; claim, unclaim, finish, bump, setStatus, release: UpdateItem;
    // the batch alone: GetItem; an item's rows: Query (lib/batch/adapters/dynamodb.ts).
    for (const action of ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query']) {
      expect([action, resourcesFor('batch-worker', action)]).toEqual([action, expect.stringContaining(table)]);
    }
  });

  it('streams every batch route (the results CSV is sent as it is read)', () => {
    const methods = ofType('AWS::ApiGateway::Method')
      .map(([, r]) => r.Properties)
      .filter((m) => JSON.stringify(m.Integration?.Uri ?? '').includes('BatchFunction'));
    expect(methods.map((m) => m.HttpMethod).sort()).toEqual(['DELETE', 'GET', 'GET', 'POST']);
    for (const method of methods) {
      expect(method.Integration.ResponseTransferMode).toBe('STREAM');
      expect(JSON.stringify(method.Integration.Uri)).toContain('/response-streaming-invocations');
    }
  });

  it('gives each batch function only its own queue calls', () => {
    const actionsOf = (fn: string) => {
      const role = resources[logicalIdOf(fn, 'AWS::Lambda::Function')]!.Properties.Role['Fn::GetAtt'][0];
      return Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::ManagedPolicy' && r.Properties.Roles.some((ref: { Ref: string }) => ref.Ref === role))
        .flatMap((r) => r.Properties.PolicyDocument.Statement)
        .flatMap((s: { Action: string | string[] }) => [s.Action].flat())
        .filter((a: string) => a.startsWith('sqs:'))
        .sort();
    };
    expect(actionsOf('BatchFunction')).toEqual(['sqs:SendMessage']);
    expect(actionsOf('BatchWorkerFunction')).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
    expect(actionsOf('BatchWebhookFunction')).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage']);
    expect(ofType('AWS::IAM::Policy')).toEqual([]);
  });
});

/**
 * The synthesized stacks (the same ones the checks above read) against their recorded templates (test/infra/fixtures/, written by
 * `npx tsx test/infra/stack-template.ts`). Logical ids are what CloudFormation keys resources by:
 * one that changes makes it delete the old resource and create a new one, which for the enrollment
 * table or a secret means losing data. So every logical id, type and property must stay as recorded.
 */
type RecordedResource = { Type: string; Properties?: Record<string, unknown> };
const resourcesOf = (template: Record<string, unknown>) => template.Resources as Record<string, RecordedResource>;

describe.each(Object.keys(TEMPLATE_VARIANTS) as TemplateVariant[])('the %s stack template', (variant) => {
  let recorded: Record<string, unknown>;
  let synthesized: Record<string, unknown>;
  beforeAll(() => {
    recorded = readFixture(variant);
    synthesized = normaliseTemplate(SYNTHESIZED[variant]().template.toJSON());
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

  it("normalises only the function code's asset hashes", () => {
    const placeholders = JSON.stringify(synthesized).match(/<asset-hash>/g) ?? [];
    expect(placeholders).toHaveLength(FUNCTIONS.length);
    const codeKeys = Object.values(resourcesOf(synthesized))
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => (r.Properties!.Code as { S3Key: string }).S3Key);
    expect(codeKeys).toEqual(FUNCTIONS.map(() => '<asset-hash>.zip'));
  });
});
