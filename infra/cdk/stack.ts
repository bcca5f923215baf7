import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Aws, CfnOutput, Duration, Fn, RemovalPolicy, SecretValue, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  Period,
  RequestAuthorizer,
  ResponseTransferMode,
  ResponseType,
  RestApi,
  type IResource,
  type Method,
  type MethodOptions,
} from 'aws-cdk-lib/aws-apigateway';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, CfnFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { AUTHORIZER_CACHE_SECONDS, PLAN_NAMES, type PlanName } from '../../lib/auth/tokens.js';
import { TOKEN_STORE_CACHE_SECONDS } from '../../lib/config/secrets.js';
import { DEFAULT_LETTER_MODEL, DEFAULT_STEDI_BASE_URL } from '../../lib/config/index.js';
import { ERROR_TABLE, EXACT, type ErrorCode } from '../../lib/errors/index.js';
import { ALL_FONT_FILES, bundledName, type FontFile } from '../../lib/letter/font-files.js';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { BUNDLING, FUNCTIONS, LETTER_INTEGRATION_TIMEOUT_SECONDS, type FunctionName } from './functions.js';

/**
 * The whole service in one environment-agnostic stack (docs/deployment.md): a regional API Gateway
 * REST API with a bearer-token Lambda REQUEST authorizer, per-client usage plans and a WAF web ACL;
 * one function per route (the letter streamed); three secrets, the enrollment table and the
 * idempotency table, all encrypted with one customer-managed KMS key. Every function role is a
 * customer-managed policy listing exactly what that function reads (no AWS-managed policies, no
 * inline policies).
 */

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface UsagePlanSettings {
  /** Steady requests per second for one client, across all routes. */
  rateLimit: number;
  burstLimit: number;
  /** Requests per calendar month (UTC) for one client. */
  monthlyQuota: number;
  /** The letter route's own limit inside the plan: every letter is a paid model call. */
  letterRateLimit: number;
  letterBurstLimit: number;
}

export const DEFAULTS = {
  stediBaseUrl: DEFAULT_STEDI_BASE_URL,
  letterModel: DEFAULT_LETTER_MODEL,
  powertoolsLogLevel: 'INFO',
  logRetentionDays: 365,
  stageName: 'prod',
  /** The stage's ceiling over all clients together; each client is held to its plan below it. */
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  authorizerCacheSeconds: AUTHORIZER_CACHE_SECONDS,
  /** Comma-separated browser origins allowed by CORS; empty keeps CORS off (CORS_ALLOWED_ORIGINS). */
  corsAllowedOrigins: '',
  /** Requests one IP address may send in any 5-minute window before WAF answers 429. */
  wafRateLimitPerIp: 6000,
  usagePlans: {
    standard: { rateLimit: 10, burstLimit: 20, monthlyQuota: 100_000, letterRateLimit: 1, letterBurstLimit: 2 },
    high: { rateLimit: 50, burstLimit: 100, monthlyQuota: 1_000_000, letterRateLimit: 5, letterBurstLimit: 10 },
  } as Record<PlanName, UsagePlanSettings>,
};

/** Powertools idempotency's default attribute names (docs/deployment.md#idempotency). */
export const IDEMPOTENCY_TABLE_KEYS = { partitionKey: 'id', ttlAttribute: 'expiration' } as const;

/** WAF inspects at most this much of a body; the letter route alone may carry more (a 4 MiB PDF). */
export const WAF_BODY_LIMIT_BYTES = 8 * 1024;

export interface EligibilityStackProps extends StackProps {
  /** Folder holding one folder per function, each with index.ts (default: <repo>/functions). */
  functionsDir?: string;
}

/** Every face of the letter's font fallback chain (lib/letter/font-files.ts, docs/letter.md#fonts). */
const FONT_FILES = ALL_FONT_FILES;

export class EligibilityStack extends Stack {
  constructor(scope: Construct, id: string, props: EligibilityStackProps = {}) {
    super(scope, id, props);
    const setting = <K extends keyof typeof DEFAULTS>(key: K): (typeof DEFAULTS)[K] =>
      (this.node.tryGetContext(key) ?? DEFAULTS[key]) as (typeof DEFAULTS)[K];
    const retention = retentionDays(Number(setting('logRetentionDays')));
    const functionsDir = props.functionsDir ?? join(PROJECT_ROOT, 'functions');
    const authorizerCacheSeconds = Number(setting('authorizerCacheSeconds'));
    // docs/deployment.md#revocation: a revoked token must stop working within 5 minutes.
    if (!(authorizerCacheSeconds >= 0 && authorizerCacheSeconds + TOKEN_STORE_CACHE_SECONDS <= 300)) {
      throw new Error(`authorizerCacheSeconds must be 0-${300 - TOKEN_STORE_CACHE_SECONDS} (the token store itself caches ${TOKEN_STORE_CACHE_SECONDS} s)`);
    }
    const corsOrigins = String(this.node.tryGetContext('corsAllowedOrigins') ?? process.env.CORS_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    const plans = usagePlanSettings(setting('usagePlans'));

    // One customer-managed key for secrets, tables, backups and logs: one place to audit and revoke.
    const key = new Key(this, 'DataKey', {
      description: 'Encrypts the eligibility service secrets, tables, backups and logs',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      alias: `alias/${id}-data`,
    });
    // CloudWatch Logs encrypts with the key only for log groups of this account and region.
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*` },
        },
      }),
    );

    const tokensSecret = new Secret(this, 'ApiTokensSecret', {
      description:
        'Bearer token digests and usage-plan keys: {"clients":[{"clientId","tokenSha256","plan","apiKeyId","usageIdentifierKey"}]}; managed with `npm run admin -- token ...`',
      encryptionKey: key,
      // Holds only SHA-256 digests and API key values (which grant nothing without a token), so
      // the empty initial document is not sensitive.
      secretStringValue: SecretValue.unsafePlainText('{"clients":[]}'),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The vendor keys start as random placeholders (never a literal in the template); an operator
    // puts the real key with PutSecretValue. A placeholder fails upstream auth → CONFIGURATION_ERROR.
    const vendorSecret = (idPart: string, description: string) =>
      new Secret(this, idPart, {
        description,
        encryptionKey: key,
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        removalPolicy: RemovalPolicy.RETAIN,
      });
    const stediSecret = vendorSecret('StediApiKeySecret', 'Stedi API key (plain string), sent as the Authorization header');
    const anthropicSecret = vendorSecret('AnthropicApiKeySecret', 'Anthropic API key (plain string) for the letter generator');

    const table = new Table(this, 'EnrollmentsTable', {
      partitionKey: { name: 'providerId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: key,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Stored answers of idempotent POSTs (docs/deployment.md#idempotency). They contain patient data
    // for 24 h: KMS-encrypted, expired by TTL, and recoverable by PITR for one day only, so no copy
    // outlives its record by more than a day. Deleting the stack deletes them.
    const idempotencyTable = new Table(this, 'IdempotencyTable', {
      partitionKey: { name: IDEMPOTENCY_TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      timeToLiveAttribute: IDEMPOTENCY_TABLE_KEYS.ttlAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 1 },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: key,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // PITR restores any second of the last 35 days; the backup plan keeps monthly copies for a
    // year in a vault that survives the table (HIPAA contingency plan, 164.308(a)(7)).
    const vault = new BackupVault(this, 'BackupVault', { encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const plan = new BackupPlan(this, 'BackupPlan', {
      backupVault: vault,
      backupPlanRules: [BackupPlanRule.daily(), BackupPlanRule.monthly1Year()],
    });
    const backupSelection = plan.addSelection('Enrollments', { resources: [BackupResource.fromDynamoDbTable(table)] });

    const corsEnv: Record<string, string> = corsOrigins.length ? { CORS_ALLOWED_ORIGINS: corsOrigins.join(',') } : {};
    const stediEnv = { STEDI_SECRET_ARN: stediSecret.secretArn, ENROLLMENTS_TABLE: table.tableName, STEDI_BASE_URL: setting('stediBaseUrl') };
    const idempotencyEnv = { IDEMPOTENCY_TABLE: idempotencyTable.tableName };
    const makeFunction = (name: FunctionName, environment: Record<string, string>, grants: PolicyStatement[], hooks?: FontFile[]) => {
      const logGroup = new LogGroup(this, `${pascal(name)}Logs`, { retention, encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
      const role = new Role(this, `${pascal(name)}Role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `Execution role of the ${name} function`,
      });
      const policy = new ManagedPolicy(this, `${pascal(name)}Policy`, {
        description: `Exactly what the ${name} function reads and writes`,
        roles: [role],
        statements: [
          new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
          // X-Ray has no resource-level permissions for these two actions.
          new PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] }),
          ...grants,
        ],
      });
      const fn = new NodejsFunction(this, `${pascal(name)}Function`, {
        entry: join(functionsDir, name, 'index.ts'),
        handler: 'handler',
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: FUNCTIONS[name].memoryMiB,
        timeout: Duration.seconds(FUNCTIONS[name].timeoutSeconds),
        role,
        logGroup,
        description: `Eligibility service: ${name}`,
        depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
        projectRoot: PROJECT_ROOT,
        environment: {
          POWERTOOLS_SERVICE_NAME: `eligibility-service-${name}`,
          POWERTOOLS_LOG_LEVEL: setting('powertoolsLogLevel'),
          NODE_OPTIONS: '--enable-source-maps',
          ...environment,
        },
        bundling: {
          format: OutputFormat.ESM,
          banner: BUNDLING.banner,
          esbuildArgs: { '--alias': Object.entries(BUNDLING.alias).map(([name, path]) => `${name}=${path}`) },
          mainFields: ['module', 'main'],
          minify: true,
          sourceMap: true,
          target: 'node22',
          // Bundle the AWS SDK too: the tested version ships, not whatever the runtime carries.
          externalModules: [],
          forceDockerBundling: false,
          ...(hooks ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: (inputDir: string, outputDir: string) => hookCommands(hooks, inputDir, outputDir) } } : {}),
          // The letter's pdf.js (unpdf, 1.6 MB) is imported only when a letter's codes are verified: shipped
          // beside the bundle instead of inside it, so a cold start does not parse it.
          ...(hooks ? { nodeModules: ['unpdf'] } : {}),
        },
      });
      // Tracing is set on the L1 so CDK does not add its own inline policy for X-Ray (granted above).
      (fn.node.defaultChild as CfnFunction).tracingConfig = { mode: Tracing.ACTIVE };
      fn.node.addDependency(policy);
      Validations.of(policy).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'Only xray:PutTraceSegments and xray:PutTelemetryRecords use Resource "*"; X-Ray does not support resource-level permissions for them.',
      });
      return fn;
    };

    const readSecret = (...secrets: Secret[]) =>
      new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secrets.map((s) => s.secretArn) });
    const useKeyVia = (actions: string[], ...services: string[]) =>
      new PolicyStatement({
        actions,
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': services.map((s) => `${s}.${Aws.REGION}.amazonaws.com`) } },
      });
    const decryptVia = (...services: string[]) => useKeyVia(['kms:Decrypt'], ...services);
    const getEnrollment = new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [table.tableArn] });
    // What Powertools idempotency calls (get, conditional put, update, delete on failure), and the
    // key use DynamoDB needs to write an encrypted item on the caller's behalf.
    const idempotencyGrants = () => [
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        resources: [idempotencyTable.tableArn],
      }),
      useKeyVia(['kms:Encrypt', 'kms:GenerateDataKey'], 'dynamodb'),
    ];

    const authorizerFn = makeFunction('authorizer', { API_TOKENS_SECRET_ARN: tokensSecret.secretArn }, [
      readSecret(tokensSecret),
      decryptVia('secretsmanager'),
    ]);
    const eligibilityFn = makeFunction('eligibility', { ...stediEnv, ...idempotencyEnv, ...corsEnv }, [
      readSecret(stediSecret),
      getEnrollment,
      ...idempotencyGrants(),
      decryptVia('secretsmanager', 'dynamodb'),
    ]);
    const cobFn = makeFunction('cob', { ...stediEnv, ...idempotencyEnv, ...corsEnv }, [
      readSecret(stediSecret),
      getEnrollment,
      ...idempotencyGrants(),
      decryptVia('secretsmanager', 'dynamodb'),
    ]);
    const letterFn = makeFunction(
      'letter',
      { ANTHROPIC_SECRET_ARN: anthropicSecret.secretArn, LETTER_MODEL: setting('letterModel'), ...idempotencyEnv, ...corsEnv },
      [readSecret(anthropicSecret), ...idempotencyGrants(), decryptVia('secretsmanager', 'dynamodb')],
      FONT_FILES,
    );
    // docs/api.md#payer-directory: reads the Stedi key only (the directory's own search endpoint).
    const payersFn = makeFunction('payers', { ...stediEnv, ...corsEnv }, [readSecret(stediSecret), decryptVia('secretsmanager')]);
    // docs/mcp.md: the tools run the eligibility, COB and payer routes, so it needs what they need.
    const mcpFn = makeFunction('mcp', { ...stediEnv, ...corsEnv }, [readSecret(stediSecret), getEnrollment, decryptVia('secretsmanager', 'dynamodb')]);
    const notFoundFn = makeFunction('not-found', corsEnv, []);
    const healthFn = makeFunction('health', corsEnv, []);
    const openapiFn = makeFunction('openapi', corsEnv, []);
    const routeFunctions: Record<FunctionName, NodejsFunction> = {
      authorizer: authorizerFn,
      eligibility: eligibilityFn,
      cob: cobFn,
      letter: letterFn,
      payers: payersFn,
      mcp: mcpFn,
      'not-found': notFoundFn,
      health: healthFn,
      openapi: openapiFn,
    };

    // ---------------------------------------------------------------- the REST API
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention, encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const api = new RestApi(this, 'RestApi', {
      restApiName: `${id}-api`,
      description: 'Eligibility, coordination of benefits and letter of medical necessity API',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Each client's usage-plan key comes from the authorizer (usageIdentifierKey), never from a header.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      cloudWatchRole: false,
      deployOptions: {
        stageName: setting('stageName'),
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: Number(setting('throttleRateLimit')),
        throttlingBurstLimit: Number(setting('throttleBurstLimit')),
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
      },
    });

    // The ApiUrl output below replaces the one RestApi adds by itself.
    api.node.tryRemoveChild('Endpoint');

    const authorizer = new RequestAuthorizer(this, 'BearerTokenAuthorizer', {
      authorizerName: 'bearer-token',
      handler: authorizerFn,
      // A request without the header is answered 401 by the gateway before the function runs.
      identitySources: [IdentitySource.header('Authorization')],
      // Keyed by the Authorization header, so a cached answer only ever serves the same token.
      resultsCacheTtl: Duration.seconds(authorizerCacheSeconds),
    });
    const authenticated: MethodOptions = { authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true };
    const open: MethodOptions = { authorizationType: AuthorizationType.NONE, apiKeyRequired: false };

    // One integration (and one API-scoped invoke permission) for everything the not-found function answers.
    const notFound = new LambdaIntegration(notFoundFn, { scopePermissionToMethod: false });
    const integrationFor = (name: FunctionName) =>
      name === 'letter'
        ? // docs/deployment.md#streaming: the letter may take up to 120 s, so its answer is streamed.
          new LambdaIntegration(letterFn, {
            responseTransferMode: ResponseTransferMode.STREAM,
            timeout: Duration.seconds(LETTER_INTEGRATION_TIMEOUT_SECONDS),
          })
        : new LambdaIntegration(routeFunctions[name]);

    // docs/deployment.md#routes: every entry of the route table (lib/http/routes.ts), as the local server serves it.
    const methods: Record<string, Method> = {};
    const routeResources = new Set<IResource>();
    for (const route of ROUTE_TABLE) {
      const resource = api.root.resourceForPath(route.path);
      methods[`${route.method} ${route.path}`] = resource.addMethod(route.method, integrationFor(route.function), route.auth ? authenticated : open);
      routeResources.add(resource);
    }
    // Everything else reaches the not-found function, which answers from the same table: a wrong
    // method on a route's path is 405 with Allow (no token needed, as locally); any other path,
    // including / and the folders above the routes, is 404 NOT_FOUND after authorization, so an
    // anonymous caller learns nothing about which paths exist. With CORS on, a route's OPTIONS is
    // the unauthenticated preflight.
    api.root.addProxy({ anyMethod: false });
    const everyResource = (resource: IResource): IResource[] => [resource, ...resource.node.children.filter(isResource).flatMap(everyResource)];
    for (const resource of everyResource(api.root)) {
      resource.addMethod('ANY', notFound, routeResources.has(resource) ? open : authenticated);
      if (corsOrigins.length && routeResources.has(resource)) resource.addMethod('OPTIONS', notFound, open);
    }

    // docs/deployment.md#errors: the gateway's own answers carry the API's error bodies.
    for (const [type, response] of Object.entries(gatewayResponses(corsOrigins))) {
      api.addGatewayResponse(`${pascal(type.toLowerCase().replace(/_/g, '-'))}Response`, {
        type: ResponseType.of(type),
        ...(response.status === undefined ? {} : { statusCode: String(response.status) }),
        responseHeaders: response.headers,
        templates: { 'application/json': response.body },
      });
    }

    // ---------------------------------------------------------------- usage plans (docs/deployment.md#plans)
    const letterMethod = methods['POST /api/generate-letter']!;
    const usagePlans = PLAN_NAMES.map((name) => {
      const settings = plans[name];
      return api.addUsagePlan(`${pascal(name)}UsagePlan`, {
        name: `${id}-${name}`,
        description: `${name} plan: ${settings.rateLimit} requests/s (burst ${settings.burstLimit}), ${settings.monthlyQuota} requests/month, letters ${settings.letterRateLimit}/s`,
        throttle: { rateLimit: settings.rateLimit, burstLimit: settings.burstLimit },
        quota: { limit: settings.monthlyQuota, period: Period.MONTH },
        apiStages: [
          {
            api,
            stage: api.deploymentStage,
            throttle: [{ method: letterMethod, throttle: { rateLimit: settings.letterRateLimit, burstLimit: settings.letterBurstLimit } }],
          },
        ],
      });
    });

    // ---------------------------------------------------------------- WAF (docs/deployment.md#waf)
    const webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${id}-api`,
      description: 'Managed common and known-bad-inputs rules, a per-IP rate limit, and a body-size limit outside the letter route',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: `${id}-api`, sampledRequestsEnabled: false },
      customResponseBodies: {
        tooManyRequests: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ message: 'Too Many Requests' }) },
        payloadTooLarge: { contentType: 'APPLICATION_JSON', content: JSON.stringify({ message: ERROR_TABLE.PAYLOAD_TOO_LARGE.message, code: 'PAYLOAD_TOO_LARGE' }) },
      },
      rules: wafRules(id, Number(setting('wafRateLimitPerIp'))),
    });
    const association = new CfnWebACLAssociation(this, 'WebAclAssociation', { resourceArn: api.deploymentStage.stageArn, webAclArn: webAcl.attrArn });
    association.node.addDependency(api.deploymentStage);
    // WAF logs name the rule that matched. The Authorization header is redacted; WAF never logs bodies.
    const wafLogName = `aws-waf-logs-${id}`;
    const wafLogs = new LogGroup(this, 'WafLogs', { logGroupName: wafLogName, retention, encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const wafLogging = new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: webAcl.attrArn,
      logDestinationConfigs: [Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: wafLogName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
    });
    wafLogging.node.addDependency(wafLogs);

    acknowledgeFindings({
      functions: Object.values(routeFunctions),
      tokensSecret,
      vendorSecrets: [stediSecret, anthropicSecret],
      backupSelection,
      idempotencyTable,
      api,
      openMethods: api.methods.filter((m) => (m.node.defaultChild as { authorizationType?: string }).authorizationType === AuthorizationType.NONE),
    });

    new CfnOutput(this, 'ApiUrl', { value: api.url, description: 'Base URL of the API (the stage); paths such as /api/eligibility/v1 follow it' });
    new CfnOutput(this, 'EnrollmentsTableName', { value: table.tableName, description: 'ENROLLMENTS_TABLE for the admin CLI' });
    new CfnOutput(this, 'ApiTokensSecretArn', { value: tokensSecret.secretArn, description: 'API_TOKENS_SECRET_ARN for the admin CLI' });
    new CfnOutput(this, 'UsagePlanIds', {
      value: Fn.join(',', PLAN_NAMES.map((name, i) => `${name}=${usagePlans[i]!.usagePlanId}`)),
      description: 'USAGE_PLAN_IDS for the admin CLI (token create --plan)',
    });
    new CfnOutput(this, 'IdempotencyTableName', { value: idempotencyTable.tableName, description: 'Stored idempotent answers (24 h)' });
    new CfnOutput(this, 'StediSecretArn', { value: stediSecret.secretArn, description: 'Put the Stedi API key here' });
    new CfnOutput(this, 'AnthropicSecretArn', { value: anthropicSecret.secretArn, description: 'Put the Anthropic API key here' });
  }
}

/**
 * One JSON line per request: identifiers, route template, status and timings only. No bodies,
 * headers, query strings or concrete paths are logged (docs/deployment.md#logs).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTimeEpoch',
  // The resource template (e.g. /api/eligibility/v1 or /{proxy+}), never the path the caller sent.
  route: '$context.httpMethod $context.resourcePath',
  status: '$context.status',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integration.latency',
  integrationStatus: '$context.integration.status',
  responseLength: '$context.responseLength',
  clientId: '$context.authorizer.clientId',
  // The usage-plan key's id (not its value), which ties a 429 to a client's plan.
  apiKeyId: '$context.identity.apiKeyId',
  authorizerError: '$context.authorizer.error',
  errorMessage: '$context.error.message',
  errorType: '$context.error.responseType',
  wafStatus: '$context.waf.status',
  sourceIp: '$context.identity.sourceIp',
  // The Lambda request id, which joins this line to the function's own log lines.
  integrationRequestId: '$context.integration.requestId',
  integrationError: '$context.integration.error',
} as const;
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));

export interface GatewayAnswer {
  /** Absent: API Gateway keeps the status of the specific error (DEFAULT_4XX / DEFAULT_5XX). */
  status?: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * The answers API Gateway gives itself, before or instead of a function: the exact 401/403/429
 * bodies, and the API's `{message, code, requestId}` shape for the rest. Header values are mapping
 * expressions: quoted literals, or a request context variable.
 */
export function gatewayResponses(corsOrigins: string[] = []): Record<string, GatewayAnswer> {
  const headers = (extra: Record<string, string> = {}) => ({
    'Cache-Control': "'no-store'",
    'x-request-id': 'context.requestId',
    // A response header can only name one origin; with several, browsers see no CORS header here.
    ...(corsOrigins.length === 1 ? { 'Access-Control-Allow-Origin': `'${corsOrigins[0]}'`, Vary: "'Origin'" } : {}),
    ...extra,
  });
  const exact = (status: number, message: string, extra?: Record<string, string>): GatewayAnswer => ({ status, body: JSON.stringify({ message }), headers: headers(extra) });
  const coded = (code: ErrorCode): GatewayAnswer => ({
    status: ERROR_TABLE[code].status,
    // $context.requestId is substituted by API Gateway when it renders the template.
    body: `{"message":${JSON.stringify(ERROR_TABLE[code].message)},"code":"${code}","requestId":"$context.requestId"}`,
    headers: headers(),
  });
  return {
    // No Authorization header (the identity source is missing): the authorizer is not even called.
    UNAUTHORIZED: exact(EXACT.UNAUTHORIZED.status, EXACT.UNAUTHORIZED.body.message),
    // The authorizer denied the token.
    ACCESS_DENIED: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // The client has no usage-plan key (a token created without a plan, or its key was removed).
    INVALID_API_KEY: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // A managed WAF rule blocked the request (the rate and size rules answer for themselves).
    WAF_FILTERED: exact(EXACT.FORBIDDEN.status, EXACT.FORBIDDEN.body.message),
    // The client's plan: over its rate, or over its monthly quota.
    THROTTLED: exact(429, 'Too Many Requests', { 'Retry-After': "'1'" }),
    QUOTA_EXCEEDED: exact(429, 'Limit Exceeded'),
    // A path below a defined resource that no method or proxy covers.
    MISSING_AUTHENTICATION_TOKEN: coded('NOT_FOUND'),
    // API Gateway's own 10 MB request limit.
    REQUEST_TOO_LARGE: coded('PAYLOAD_TOO_LARGE'),
    // The token store could not be read: fail (and cache nothing) rather than deny.
    AUTHORIZER_FAILURE: coded('INTERNAL_ERROR'),
    AUTHORIZER_CONFIGURATION_ERROR: coded('INTERNAL_ERROR'),
    INTEGRATION_TIMEOUT: coded('UPSTREAM_TIMEOUT'),
    INTEGRATION_FAILURE: coded('INTERNAL_ERROR'),
    DEFAULT_4XX: { body: '{"message":$context.error.messageString,"requestId":"$context.requestId"}', headers: headers() },
    DEFAULT_5XX: { ...coded('INTERNAL_ERROR'), status: undefined },
  };
}

/**
 * The web ACL's rules, in evaluation order: a per-IP rate limit; the AWS common rule set with its
 * 8 KB body-size rule only counting (it would refuse every letter PDF); our own body-size rule
 * that applies that 8 KB limit everywhere except the letter route; and known bad inputs.
 */
export function wafRules(id: string, ratePerIp: number): CfnWebACL.RuleProperty[] {
  const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `${id}-${name}`, sampledRequestsEnabled: false });
  const block = (status: number, bodyKey: string, headers: { name: string; value: string }[] = []) => ({
    block: { customResponse: { responseCode: status, customResponseBodyKey: bodyKey, responseHeaders: [{ name: 'cache-control', value: 'no-store' }, ...headers] } },
  });
  const managed = (name: string, priority: number, overrides?: CfnWebACL.RuleActionOverrideProperty[]): CfnWebACL.RuleProperty => ({
    name,
    priority,
    overrideAction: { none: {} },
    statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...(overrides ? { ruleActionOverrides: overrides } : {}) } },
    visibilityConfig: visibility(name),
  });
  return [
    {
      name: 'PerIpRateLimit',
      priority: 0,
      action: block(429, 'tooManyRequests', [{ name: 'retry-after', value: '60' }]),
      statement: { rateBasedStatement: { limit: ratePerIp, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
      visibilityConfig: visibility('PerIpRateLimit'),
    },
    managed('AWSManagedRulesCommonRuleSet', 1, [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }]),
    {
      name: 'BodySizeOutsideLetterRoute',
      priority: 2,
      action: block(413, 'payloadTooLarge'),
      statement: {
        andStatement: {
          statements: [
            // Bodies past what WAF inspects count as matching, so "larger than 8 KB" is decided exactly.
            { sizeConstraintStatement: { fieldToMatch: { body: { oversizeHandling: 'MATCH' } }, comparisonOperator: 'GT', size: WAF_BODY_LIMIT_BYTES, textTransformations: [{ priority: 0, type: 'NONE' }] } },
            {
              notStatement: {
                statement: {
                  byteMatchStatement: {
                    fieldToMatch: { uriPath: {} },
                    positionalConstraint: 'ENDS_WITH',
                    searchString: '/api/generate-letter',
                    textTransformations: [{ priority: 0, type: 'NONE' }],
                  },
                },
              },
            },
          ],
        },
      },
      visibilityConfig: visibility('BodySizeOutsideLetterRoute'),
    },
    managed('AWSManagedRulesKnownBadInputsRuleSet', 3),
  ];
}

/** Both plans, each with every figure a positive number (a typo in cdk.json fails the synth). */
function usagePlanSettings(value: unknown): Record<PlanName, UsagePlanSettings> {
  const plans = value as Record<string, Record<string, unknown>>;
  const fields: (keyof UsagePlanSettings)[] = ['rateLimit', 'burstLimit', 'monthlyQuota', 'letterRateLimit', 'letterBurstLimit'];
  for (const name of PLAN_NAMES) {
    for (const field of fields) {
      const figure = plans?.[name]?.[field];
      if (typeof figure !== 'number' || !(figure > 0)) throw new Error(`usagePlans.${name}.${field} must be a positive number`);
    }
  }
  return plans as unknown as Record<PlanName, UsagePlanSettings>;
}

const isResource = (node: unknown): node is IResource =>
  typeof node === 'object' && node !== null && 'resourceId' in node && 'addMethod' in node && 'path' in node;

function retentionDays(days: number): RetentionDays {
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number' && v > 0);
  if (!allowed.includes(days)) throw new Error(`logRetentionDays must be one of ${allowed.join(', ')} (got ${days})`);
  return days as RetentionDays;
}

const pascal = (name: string) => name.split('-').map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');

/** The letter code looks for its Unicode fonts in fonts/ beside the bundled handler (lib/letter/fonts.ts). */
function hookCommands(fonts: FontFile[], inputDir: string, outputDir: string): string[] {
  return [`mkdir -p "${outputDir}/fonts"`, ...fonts.map((f) => `cp "${join(inputDir, 'node_modules', f.pkg, f.path)}" "${outputDir}/fonts/${bundledName(f)}"`)];
}

/**
 * Findings acknowledged after review, each with the reason an auditor needs. Everything else the
 * AwsSolutions and HIPAA Security packs check is fixed in the resources above.
 */
function acknowledgeFindings(scope: {
  functions: NodejsFunction[];
  tokensSecret: Secret;
  vendorSecrets: Secret[];
  backupSelection: Construct;
  idempotencyTable: Table;
  api: RestApi;
  openMethods: Method[];
}) {
  const noRotation = (secret: Secret, reason: string) =>
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason }, { id: 'HIPAA.Security-SecretsManagerRotationEnabled', reason });
  noRotation(
    scope.tokensSecret,
    'Holds only SHA-256 digests of client bearer tokens, no usable credential. Tokens rotate per client with the admin CLI ' +
      '(token create issues a new token that must be delivered to the client out of band, token revoke removes the old digest); ' +
      'a Secrets Manager rotation Lambda cannot deliver a new token to the client, so automatic rotation would lock clients out.',
  );
  for (const secret of scope.vendorSecrets) {
    noRotation(
      secret,
      'Holds a third-party API key (Stedi or Anthropic) that can only be issued in the vendor console; no vendor API exists for a ' +
        'rotation Lambda to mint a key. Rotation is the operator runbook: create a new key, PutSecretValue, then revoke the old key.',
    );
  }
  for (const fn of scope.functions) {
    Validations.of(fn).acknowledge(
      {
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x, the runtime the code is built (esbuild target node22) and tested for; it is in AWS standard support. ' +
          'Moving to a newer runtime is a deliberate, tested change rather than an automatic one.',
      },
      {
        id: 'HIPAA.Security-LambdaInsideVPC',
        reason:
          'The functions reach only public HTTPS endpoints (Stedi, Anthropic) and AWS APIs that are IAM-authorized and TLS-encrypted; ' +
          'no private resource exists to isolate, so a VPC would add NAT cost and cold-start latency without narrowing any data path.',
      },
      {
        id: 'HIPAA.Security-LambdaDLQ',
        reason:
          'Invoked synchronously by API Gateway only; the caller receives every failure as an HTTP error and no event is queued, so a ' +
          'dead-letter queue (which applies to asynchronous invocations) would never receive anything.',
      },
      {
        id: 'HIPAA.Security-LambdaConcurrency',
        reason:
          'Concurrency is bounded upstream by the stage throttle and each client\'s usage plan (figures in cdk.json). Reserved concurrency is not set because ' +
          'accounts on the default concurrency quota (10) reject any reservation that leaves fewer than 10 unreserved, which fails the deploy.',
      },
    );
  }
  Validations.of(scope.backupSelection).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
    reason:
      'The AWS Backup service role uses the AWS-maintained backup policy, which AWS updates as services add backup actions; the selection ' +
      'limits it to the enrollment table, and the role can be assumed only by backup.amazonaws.com.',
  });

  Validations.of(scope.idempotencyTable).acknowledge({
    id: 'HIPAA.Security-DynamoDBInBackupPlan',
    reason:
      'Holds stored idempotent answers that contain patient data and must disappear after 24 h (TTL). A backup plan would keep copies ' +
      'for weeks; PITR with a one-day window is the only recovery kept, so no copy outlives its record by more than a day. Losing the ' +
      'table loses only replays: clients then get a fresh answer.',
  });
  Validations.of(scope.api).acknowledge({
    id: 'AwsSolutions-APIG2',
    reason:
      'Request bodies are validated in each function against the JSON Schemas that also generate the published OpenAPI document (one ' +
      'schema source), which yields the field-by-field 400 INVALID_REQUEST answers integrators rely on. A gateway model would be a ' +
      'second copy of the schemas and would answer with a different, less precise body.',
  });
  const stage = scope.api.deploymentStage;
  Validations.of(stage).acknowledge(
    {
      id: 'AwsSolutions-APIG6',
      reason:
        'Execution logging needs an account-wide API Gateway CloudWatch role and writes to log groups outside this stack (not under the ' +
        'customer-managed key or the retention here). The JSON access log records every request with status, authorizer, integration ' +
        'and WAF errors, and the functions log their own failures, so execution logs would add only a second, unencrypted copy.',
    },
    {
      id: 'HIPAA.Security-APIGWExecutionLoggingEnabled',
      reason:
        'Audit controls (164.312(b)) are met by the KMS-encrypted JSON access log of every request (identity, route, status, errors) and ' +
        'the functions\' structured logs; execution logs would be written unencrypted to account-level log groups outside this stack.',
    },
    {
      id: 'HIPAA.Security-APIGWCacheEnabledAndEncrypted',
      reason:
        'Every answer is computed for one client and may contain patient data; caching responses at the gateway would serve one ' +
        'request\'s answer to another and keep patient data outside the stores the service documents. Caching is deliberately off.',
    },
    {
      id: 'HIPAA.Security-APIGWSSLEnabled',
      reason:
        'A stage client certificate lets an HTTP backend authenticate API Gateway. Every integration here is a Lambda function invoked ' +
        'through the IAM-signed Lambda API over TLS, which cannot use a client certificate.',
    },
  );
  for (const method of scope.api.methods) {
    const reason =
      'Clients are server-side integrations authenticated by bearer tokens in a Lambda REQUEST authorizer, with per-client usage-plan ' +
      'keys; there are no end users to sign in to a Cognito user pool.';
    Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason });
  }
  for (const method of scope.openMethods) {
    Validations.of(method).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Public by design: the health check and the OpenAPI document carry no patient or client data, and a CORS preflight (OPTIONS) ' +
        'must be answered before a browser will send credentials. Every other method requires the bearer-token authorizer.',
    });
  }
}
