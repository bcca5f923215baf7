import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Aws, CfnOutput, Duration, RemovalPolicy, SecretValue, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Architecture, CfnFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { DEFAULT_LETTER_MODEL, DEFAULT_STEDI_BASE_URL } from '../../lib/config/index.js';

/**
 * The whole service in one environment-agnostic stack: an HTTP API with a bearer-token Lambda
 * authorizer, one function per route, three secrets and the enrollment table, all encrypted with
 * one customer-managed KMS key. Every function role is a customer-managed policy listing exactly
 * what that function reads (no AWS-managed policies, no inline policies).
 */

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DEFAULTS = {
  stediBaseUrl: DEFAULT_STEDI_BASE_URL,
  letterModel: DEFAULT_LETTER_MODEL,
  powertoolsLogLevel: 'INFO',
  logRetentionDays: 365,
  throttleRateLimit: 50,
  throttleBurstLimit: 100,
  authorizerCacheSeconds: 300,
} as const;

export interface EligibilityStackProps extends StackProps {
  /** Folder holding authorizer/, eligibility/, cob/, letter/, not-found/ each with index.ts (default: <repo>/functions). */
  functionsDir?: string;
}

type RouteName = 'authorizer' | 'eligibility' | 'cob' | 'letter' | 'not-found';

/** What each function is sized for; memory also buys CPU, which shortens cold starts. */
const SIZING: Record<RouteName, { memoryMiB: number; timeout: Duration }> = {
  // Hashes a token and reads one small secret; 256 MiB keeps the cold start short at minimal cost.
  // 5 s: API Gateway waits at most 10 s for an authorizer, and a slow token store must fail fast.
  authorizer: { memoryMiB: 256, timeout: Duration.seconds(5) },
  // Builds a 270 and parses a 271 (small strings); 512 MiB is for CPU during SDK-heavy cold starts.
  // 29 s: the upstream budget is 25 s and API Gateway cuts the request at 30 s.
  eligibility: { memoryMiB: 512, timeout: Duration.seconds(29) },
  cob: { memoryMiB: 512, timeout: Duration.seconds(29) },
  // Holds a PDF of up to 4 MiB (base64 + decoded), loads pdf-lib with fontkit and subsets four
  // DejaVu faces (~2.5 MB of TTF); 1536 MiB avoids GC pressure and gives ~1 vCPU for layout.
  letter: { memoryMiB: 1536, timeout: Duration.seconds(29) },
  // The `$default` route: formats a 404 body and touches nothing else.
  'not-found': { memoryMiB: 256, timeout: Duration.seconds(5) },
};

const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSans-BoldOblique.ttf'];

export class EligibilityStack extends Stack {
  constructor(scope: Construct, id: string, props: EligibilityStackProps = {}) {
    super(scope, id, props);
    const setting = <K extends keyof typeof DEFAULTS>(key: K): (typeof DEFAULTS)[K] =>
      (this.node.tryGetContext(key) ?? DEFAULTS[key]) as (typeof DEFAULTS)[K];
    const retention = retentionDays(Number(setting('logRetentionDays')));
    const functionsDir = props.functionsDir ?? join(PROJECT_ROOT, 'functions');

    // One customer-managed key for secrets, table, backups and logs: one place to audit and revoke.
    const key = new Key(this, 'DataKey', {
      description: 'Encrypts the eligibility service secrets, enrollment table, backups and logs',
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
      description: 'Bearer token digests: {"clients":[{"clientId","tokenSha256"}]}; managed with `npm run admin -- token ...`',
      encryptionKey: key,
      // Holds only SHA-256 digests, so the empty initial document is not sensitive.
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

    // PITR restores any second of the last 35 days; the backup plan keeps monthly copies for a
    // year in a vault that survives the table (HIPAA contingency plan, 164.308(a)(7)).
    const vault = new BackupVault(this, 'BackupVault', { encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const plan = new BackupPlan(this, 'BackupPlan', {
      backupVault: vault,
      backupPlanRules: [BackupPlanRule.daily(), BackupPlanRule.monthly1Year()],
    });
    const backupSelection = plan.addSelection('Enrollments', { resources: [BackupResource.fromDynamoDbTable(table)] });

    const stediEnv = { STEDI_SECRET_ARN: stediSecret.secretArn, ENROLLMENTS_TABLE: table.tableName, STEDI_BASE_URL: setting('stediBaseUrl') };
    const makeFunction = (name: RouteName, environment: Record<string, string>, grants: PolicyStatement[], hooks?: string[]) => {
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
        memorySize: SIZING[name].memoryMiB,
        timeout: SIZING[name].timeout,
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
          // ESM bundles still contain CommonJS dependencies that call require().
          banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
          mainFields: ['module', 'main'],
          minify: true,
          sourceMap: true,
          target: 'node22',
          // Bundle the AWS SDK too: the tested version ships, not whatever the runtime carries.
          externalModules: [],
          forceDockerBundling: false,
          ...(hooks ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: (inputDir: string, outputDir: string) => hookCommands(hooks, inputDir, outputDir) } } : {}),
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
    const decryptVia = (...services: string[]) =>
      new PolicyStatement({
        actions: ['kms:Decrypt'],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': services.map((s) => `${s}.${Aws.REGION}.amazonaws.com`) } },
      });
    const getEnrollment = new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [table.tableArn] });

    const authorizerFn = makeFunction('authorizer', { API_TOKENS_SECRET_ARN: tokensSecret.secretArn }, [
      readSecret(tokensSecret),
      decryptVia('secretsmanager'),
    ]);
    const eligibilityFn = makeFunction('eligibility', stediEnv, [readSecret(stediSecret), getEnrollment, decryptVia('secretsmanager', 'dynamodb')]);
    const cobFn = makeFunction('cob', stediEnv, [readSecret(stediSecret), getEnrollment, decryptVia('secretsmanager', 'dynamodb')]);
    const letterFn = makeFunction(
      'letter',
      { ANTHROPIC_SECRET_ARN: anthropicSecret.secretArn, LETTER_MODEL: setting('letterModel') },
      [readSecret(anthropicSecret), decryptVia('secretsmanager')],
      FONT_FILES,
    );

    const notFoundFn = makeFunction('not-found', {}, []);

    const authorizer = new HttpLambdaAuthorizer('BearerTokenAuthorizer', authorizerFn, {
      authorizerName: 'bearer-token',
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: ['$request.header.Authorization'],
      // Keyed by the Authorization header, so a cached allow only ever serves the same token.
      resultsCacheTtl: Duration.seconds(Number(setting('authorizerCacheSeconds'))),
    });

    const api = new HttpApi(this, 'HttpApi', {
      apiName: `${id}-api`,
      description: 'Eligibility, coordination of benefits and letter of medical necessity API',
      defaultAuthorizer: authorizer,
      // Any other method or path gets the contract's 404 NOT_FOUND body, after authorization, so
      // an anonymous caller learns nothing about which routes exist.
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', notFoundFn, { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 }),
      // The stage below carries access logs and throttling, which the implicit default stage cannot.
      createDefaultStage: false,
    });
    const routes: [string, NodejsFunction][] = [
      ['/api/eligibility/v1', eligibilityFn],
      ['/api/eligibility/cob/v1', cobFn],
      ['/api/generate-letter', letterFn],
    ];
    for (const [path, fn] of routes) {
      api.addRoutes({
        path,
        methods: [HttpMethod.POST],
        integration: new HttpLambdaIntegration(`${fn.node.id}Integration`, fn, { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 }),
      });
    }

    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention, encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: Number(setting('throttleRateLimit')), burstLimit: Number(setting('throttleBurstLimit')) },
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: ACCESS_LOG_FORMAT },
    });

    acknowledgeFindings({ functions: [authorizerFn, eligibilityFn, cobFn, letterFn, notFoundFn], tokensSecret, vendorSecrets: [stediSecret, anthropicSecret], backupSelection });

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'EnrollmentsTableName', { value: table.tableName, description: 'ENROLLMENTS_TABLE for the admin CLI' });
    new CfnOutput(this, 'ApiTokensSecretArn', { value: tokensSecret.secretArn, description: 'API_TOKENS_SECRET_ARN for the admin CLI' });
    new CfnOutput(this, 'StediSecretArn', { value: stediSecret.secretArn, description: 'Put the Stedi API key here' });
    new CfnOutput(this, 'AnthropicSecretArn', { value: anthropicSecret.secretArn, description: 'Put the Anthropic API key here' });
  }
}

/**
 * One JSON line per request: identifiers, route, status and timings only. No bodies, headers,
 * query strings or paths with parameters are logged (CONTRACT §8).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTimeEpoch',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  responseLength: '$context.responseLength',
  clientId: '$context.authorizer.clientId',
  authorizerError: '$context.authorizer.error',
  errorMessage: '$context.error.message',
  sourceIp: '$context.identity.sourceIp',
  // The Lambda request id, which joins this line to the function's own log lines.
  integrationRequestId: '$context.integration.requestId',
  integrationError: '$context.integration.error',
} as const;
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS));

function retentionDays(days: number): RetentionDays {
  const allowed = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number' && v > 0);
  if (!allowed.includes(days)) throw new Error(`logRetentionDays must be one of ${allowed.join(', ')} (got ${days})`);
  return days as RetentionDays;
}

const pascal = (name: string) => name.split('-').map((part) => part[0]!.toUpperCase() + part.slice(1)).join('');

/** The letter code looks for its Unicode fonts in fonts/ beside the bundled handler (lib/letter/fonts.ts). */
function hookCommands(fonts: string[], inputDir: string, outputDir: string): string[] {
  const source = join(inputDir, 'node_modules', 'dejavu-fonts-ttf', 'ttf');
  return [`mkdir -p "${outputDir}/fonts"`, ...fonts.map((f) => `cp "${join(source, f)}" "${outputDir}/fonts/${f}"`)];
}

/**
 * Findings acknowledged after review, each with the reason an auditor needs. Everything else the
 * AwsSolutions and HIPAA Security packs check is fixed in the resources above.
 */
function acknowledgeFindings(scope: { functions: NodejsFunction[]; tokensSecret: Secret; vendorSecrets: Secret[]; backupSelection: Construct }) {
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
          'Concurrency is bounded upstream by the API stage throttle (rate/burst in cdk.json). Reserved concurrency is not set because ' +
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
}
