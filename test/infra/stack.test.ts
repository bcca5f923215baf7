import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsSolutionsChecks, HIPAASecurityChecks } from 'cdk-nag';
import { ACCESS_LOG_FIELDS, EligibilityStack, PROJECT_ROOT } from '../../infra/cdk/stack.js';

const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
const FUNCTIONS = ['authorizer', 'eligibility', 'cob', 'letter', 'not-found'] as const;

// Entries must exist under the project root; bundling is skipped, so placeholders are enough.
let fixtureDir: string;
let app: App;
let stack: EligibilityStack;
let template: Template;

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
let resources: Record<string, Resource>;

const newApp = (extra: Record<string, unknown> = {}) =>
  new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...extra } });

beforeAll(() => {
  mkdirSync(join(PROJECT_ROOT, 'cdk.out'), { recursive: true });
  fixtureDir = mkdtempSync(join(PROJECT_ROOT, 'cdk.out', 'stack-test-functions-'));
  for (const name of FUNCTIONS) {
    mkdirSync(join(fixtureDir, name));
    writeFileSync(join(fixtureDir, name, 'index.ts'), 'export const handler = async () => ({});\n');
  }
  app = newApp();
  stack = new EligibilityStack(app, 'Test', { functionsDir: fixtureDir });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new HIPAASecurityChecks(app));
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalIdOf = (prefix: string, type: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]![0];
};
const pascal = (name: string) => name.split('-').map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
const functionId = (name: string) => logicalIdOf(pascal(name) + 'Function', 'AWS::Lambda::Function');

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
  JSON.stringify(statementsOf(name).filter((s) => [s.Action].flat().includes(action)).map((s) => s.Resource));

describe('EligibilityStack', () => {
  it('routes the three POST paths and $default, each to its own function through the bearer authorizer', () => {
    const authorizerId = logicalIdOf('HttpApiBearerTokenAuthorizer', 'AWS::ApiGatewayV2::Authorizer');
    const routes = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['$default', 'POST /api/eligibility/cob/v1', 'POST /api/eligibility/v1', 'POST /api/generate-letter']);
    for (const route of routes) {
      expect(route.AuthorizationType).toBe('CUSTOM');
      expect(route.AuthorizerId).toEqual({ Ref: authorizerId });
    }
    const integrations = ofType('AWS::ApiGatewayV2::Integration').map(([, r]) => r.Properties);
    expect(integrations).toHaveLength(4);
    const targets = integrations.map((i) => {
      expect(i.PayloadFormatVersion).toBe('2.0');
      return i.IntegrationUri['Fn::GetAtt'][0];
    });
    expect(targets.sort()).toEqual([functionId('cob'), functionId('eligibility'), functionId('letter'), functionId('not-found')].sort());
  });

  it('configures a simple-response Lambda authorizer keyed by the Authorization header, cached 5 minutes', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      EnableSimpleResponses: true,
      AuthorizerPayloadFormatVersion: '2.0',
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 300,
      AuthorizerUri: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [functionId('authorizer'), 'Arn'] })])]) }),
    });
  });

  it('runs every function on Node 22 / arm64 with X-Ray, its own encrypted log group and a timeout under 30 s', () => {
    const fns = ofType('AWS::Lambda::Function');
    expect(fns).toHaveLength(5);
    for (const [, fn] of fns) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' }, Handler: 'index.handler' });
      expect(fn.Properties.Timeout).toBeLessThanOrEqual(29);
      expect(fn.Properties.LoggingConfig.LogGroup).toBeDefined();
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
    expect(resources[functionId('authorizer')]!.Properties.Timeout).toBe(5);
    expect(resources[functionId('letter')]!.Properties.MemorySize).toBeGreaterThan(resources[functionId('eligibility')]!.Properties.MemorySize);
  });

  it('gives each function only its own configuration', () => {
    const env = (name: string) => resources[functionId(name)]!.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(env('authorizer')).sort()).toEqual(['API_TOKENS_SECRET_ARN', 'NODE_OPTIONS', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME']);
    for (const name of ['eligibility', 'cob']) {
      expect(env(name)).toMatchObject({ STEDI_BASE_URL: cdkJson.context.stediBaseUrl, ENROLLMENTS_TABLE: { Ref: logicalIdOf('EnrollmentsTable', 'AWS::DynamoDB::Table') } });
      expect(env(name)).not.toHaveProperty('ANTHROPIC_SECRET_ARN');
    }
    expect(env('letter')).toMatchObject({ LETTER_MODEL: cdkJson.context.letterModel, POWERTOOLS_LOG_LEVEL: 'INFO' });
    expect(env('letter')).not.toHaveProperty('STEDI_SECRET_ARN');
    expect(env('letter')).not.toHaveProperty('ENROLLMENTS_TABLE');
  });

  it('takes LETTER_MODEL and the Stedi base URL from context', () => {
    const other = new EligibilityStack(newApp({ letterModel: 'claude-test-model', stediBaseUrl: 'https://stedi.example' }), 'Ctx', { functionsDir: fixtureDir });
    const t = Template.fromStack(other);
    t.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ LETTER_MODEL: 'claude-test-model' }) } });
    t.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ STEDI_BASE_URL: 'https://stedi.example' }) } });
  });

  it('grants each role exactly what its function reads', () => {
    const tokens = logicalIdOf('ApiTokensSecret', 'AWS::SecretsManager::Secret');
    const stedi = logicalIdOf('StediApiKeySecret', 'AWS::SecretsManager::Secret');
    const anthropic = logicalIdOf('AnthropicApiKeySecret', 'AWS::SecretsManager::Secret');
    const table = logicalIdOf('EnrollmentsTable', 'AWS::DynamoDB::Table');
    const secretsRead = (name: string) => resourcesFor(name, 'secretsmanager:GetSecretValue');

    expect(secretsRead('authorizer')).toContain(tokens);
    for (const id of [stedi, anthropic]) expect(secretsRead('authorizer')).not.toContain(id);
    for (const name of ['eligibility', 'cob']) {
      expect(secretsRead(name)).toContain(stedi);
      for (const id of [tokens, anthropic]) expect(secretsRead(name)).not.toContain(id);
      expect(resourcesFor(name, 'dynamodb:GetItem')).toContain(table);
      expect(actionsOf(name).filter((a) => a.startsWith('dynamodb:'))).toEqual(['dynamodb:GetItem']);
    }
    expect(secretsRead('letter')).toContain(anthropic);
    for (const id of [tokens, stedi]) expect(secretsRead('letter')).not.toContain(id);
    expect(actionsOf('letter').some((a) => a.startsWith('dynamodb:'))).toBe(false);
    expect(actionsOf('authorizer').some((a) => a.startsWith('dynamodb:'))).toBe(false);
    expect(actionsOf('not-found').sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);

    // No wildcard actions anywhere; KMS use only through the services that need it.
    for (const name of FUNCTIONS) {
      expect(actionsOf(name).some((a) => a.includes('*'))).toBe(false);
      for (const s of statementsOf(name).filter((st) => [st.Action].flat().includes('kms:Decrypt'))) {
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
  });

  it('encrypts secrets and logs with one rotating customer-managed key and keeps logs for the configured period', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    const keyArn = { 'Fn::GetAtt': [logicalIdOf('DataKey', 'AWS::KMS::Key'), 'Arn'] };
    const secrets = ofType('AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(3);
    for (const [, s] of secrets) expect(s.Properties.KmsKeyId).toEqual(keyArn);
    const logGroups = ofType('AWS::Logs::LogGroup');
    expect(logGroups).toHaveLength(6);
    for (const [, lg] of logGroups) {
      expect(lg.Properties.RetentionInDays).toBe(cdkJson.context.logRetentionDays);
      expect(lg.Properties.KmsKeyId).toEqual(keyArn);
    }
    // The tokens secret starts as an empty client list in the format the authorizer parses.
    expect(resources[logicalIdOf('ApiTokensSecret', 'AWS::SecretsManager::Secret')]!.Properties.SecretString).toBe('{"clients":[]}');
  });

  it('writes JSON access logs with request id, route, status and latency but no bodies, and throttles the stage', () => {
    const stage = ofType('AWS::ApiGatewayV2::Stage');
    expect(stage).toHaveLength(1);
    const props = stage[0]![1].Properties;
    expect(props).toMatchObject({ StageName: '$default', AutoDeploy: true });
    expect(props.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: cdkJson.context.throttleRateLimit, ThrottlingBurstLimit: cdkJson.context.throttleBurstLimit });
    expect(props.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': [logicalIdOf('ApiAccessLogs', 'AWS::Logs::LogGroup'), 'Arn'] });
    const format = JSON.parse(props.AccessLogSettings.Format) as Record<string, string>;
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(format).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status', responseLatency: '$context.responseLatency' });
    expect(props.AccessLogSettings.Format).not.toMatch(/body|header|querystring|path\b/i);
  });

  it('outputs the API URL, table name and secret ARNs', () => {
    expect(Object.keys(template.toJSON().Outputs).sort()).toEqual(['AnthropicSecretArn', 'ApiTokensSecretArn', 'ApiUrl', 'EnrollmentsTableName', 'StediSecretArn']);
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
