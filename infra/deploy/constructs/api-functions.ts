import { Aws, type Stack } from 'aws-cdk-lib';
import { PolicyStatement, type ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { STATE_INDEX } from '../../../lib/batch/adapters/dynamodb-rows.js';
import { SCALAR_SCRIPT } from '../../../lib/http/docs-page.js';
import { ALL_FONT_FILES, type FontFile } from '../../../lib/letter/index.js';
import { FUNCTION_NAMES, type FunctionName } from '../functions.js';
import type { StackSettings } from '../settings.js';
import type { BatchStores } from './batch-stores.js';
import type { DataStores } from './data-stores.js';
import { ServiceFunction, type AssetFile } from './service-function.js';

/**
 * Every function of the function table (lib/http/functions.ts) as a ServiceFunction, each given only its own
 * configuration and only the access it needs (ACCESS below: one entry per function, so a new
 * function cannot be added without saying what it may touch). Built in the stack's scope.
 */

export interface ApiFunctionsProps {
  stores: DataStores;
  batchStores: BatchStores;
  settings: Pick<StackSettings, 'stediBaseUrl' | 'letterModel' | 'powertoolsLogLevel' | 'logRetention' | 'corsOrigins' | 'batch' | 'discovery'>;
  functionsDir: string;
}

/** A function's own environment and grants, and the fonts and other files it ships. */
interface Access {
  environment: Record<string, string>;
  grants: PolicyStatement[];
  fonts?: readonly FontFile[];
  assets?: readonly AssetFile[];
}

export class ApiFunctions {
  readonly byName: Record<FunctionName, NodejsFunction>;
  /** Each function's one role policy. */
  readonly policies: ManagedPolicy[];

  constructor(stack: Stack, props: ApiFunctionsProps) {
    const access = accessOf(props.stores, props.batchStores, props.settings);
    const built = FUNCTION_NAMES.map(
      (name) =>
        [
          name,
          new ServiceFunction(stack, {
            name,
            ...access[name],
            functionsDir: props.functionsDir,
            key: props.stores.key,
            logRetention: props.settings.logRetention,
            powertoolsLogLevel: props.settings.powertoolsLogLevel,
          }),
        ] as const,
    );
    this.byName = Object.fromEntries(built.map(([name, f]) => [name, f.fn])) as Record<FunctionName, NodejsFunction>;
    this.policies = built.map(([, f]) => f.policy);
  }

  get all(): NodejsFunction[] {
    return Object.values(this.byName);
  }
}

function accessOf(stores: DataStores, batch: BatchStores, settings: ApiFunctionsProps['settings']): Record<FunctionName, Access> {
  const { key, tokensSecret, stediSecret, anthropicSecret, enrollmentsTable, idempotencyTable } = stores;
  const readSecret = (...secrets: Secret[]) => new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secrets.map((s) => s.secretArn) });
  const useKeyVia = (actions: string[], ...services: string[]) =>
    new PolicyStatement({
      actions,
      resources: [key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': services.map((s) => `${s}.${Aws.REGION}.amazonaws.com`) } },
    });
  const decryptVia = (...services: string[]) => useKeyVia(['kms:Decrypt'], ...services);
  const getEnrollment = () => new PolicyStatement({ actions: ['dynamodb:GetItem'], resources: [enrollmentsTable.tableArn] });
  // What Powertools idempotency calls (get, conditional put, update, delete on failure), and the
  // key use DynamoDB needs to write an encrypted item on the caller's behalf.
  const idempotencyGrants = () => [
    new PolicyStatement({
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
      resources: [idempotencyTable.tableArn],
    }),
    useKeyVia(['kms:Encrypt', 'kms:GenerateDataKey'], 'dynamodb'),
  ];

  const corsEnv: Record<string, string> = settings.corsOrigins.length ? { CORS_ALLOWED_ORIGINS: settings.corsOrigins.join(',') } : {};
  const stediEnv = { STEDI_SECRET_ARN: stediSecret.secretArn, ENROLLMENTS_TABLE: enrollmentsTable.tableName, STEDI_BASE_URL: settings.stediBaseUrl };
  const idempotencyEnv = { IDEMPOTENCY_TABLE: idempotencyTable.tableName };
  const payerCall = (): Access => ({
    environment: { ...stediEnv, ...idempotencyEnv, ...corsEnv },
    grants: [readSecret(stediSecret), getEnrollment(), ...idempotencyGrants(), decryptVia('secretsmanager', 'dynamodb')],
  });
  const answersAlone: Access = { environment: corsEnv, grants: [] };

  // docs/batch.md#engine: the batch table and queues, each function only the calls it makes.
  const batchEnv = {
    BATCH_TABLE: batch.table.tableName,
    BATCH_QUEUE_URL: batch.itemQueue.queueUrl,
    BATCH_WEBHOOK_QUEUE_URL: batch.webhookQueue.queueUrl,
  };
  const onBatchTable = (...actions: string[]) => new PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [batch.table.tableArn] });
  // The items route's `?state=` reads the batch table's state index (lib/batch/adapters/dynamodb-states.ts).
  const onBatchStateIndex = () => new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${batch.table.tableArn}/index/${STATE_INDEX}`] });
  const sendTo = (...queues: { queueArn: string }[]) => new PolicyStatement({ actions: ['sqs:SendMessage'], resources: queues.map((q) => q.queueArn) });
  const consume = (queue: { queueArn: string }) =>
    new PolicyStatement({
      actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ChangeMessageVisibility'],
      resources: [queue.queueArn],
    });
  const writeEncrypted = (...services: string[]) => useKeyVia(['kms:Encrypt', 'kms:GenerateDataKey'], ...services);

  // docs/finding-coverage.md#storage: discoveries live in the batch table under their own key prefix (a
  // record, a per-client daily count); every function that may start one (the route, eligibility's
  // discoverOnInactive, batch items, MCP) gets the table, the cap and Stedi's discovery host.
  const discoveryEnv = {
    BATCH_TABLE: batch.table.tableName,
    DISCOVERY_MAX_PER_DAY: String(settings.discovery.maxPerDay),
    STEDI_DISCOVERY_BASE_URL: settings.discovery.baseUrl,
  };
  const discoveryRows = () => [onBatchTable('GetItem', 'PutItem', 'UpdateItem'), writeEncrypted('dynamodb')];
  const findsCoverage = (): Access => {
    const call = payerCall();
    return { environment: { ...call.environment, ...discoveryEnv }, grants: [...call.grants, ...discoveryRows()] };
  };

  return {
    authorizer: { environment: { API_TOKENS_SECRET_ARN: tokensSecret.secretArn }, grants: [readSecret(tokensSecret), decryptVia('secretsmanager')] },
    eligibility: findsCoverage(),
    discovery: findsCoverage(),
    medicare: payerCall(),
    cob: payerCall(),
    fhir: payerCall(),
    letter: {
      environment: { ANTHROPIC_SECRET_ARN: anthropicSecret.secretArn, LETTER_MODEL: settings.letterModel, ...idempotencyEnv, ...corsEnv },
      grants: [readSecret(anthropicSecret), ...idempotencyGrants(), decryptVia('secretsmanager', 'dynamodb')],
      // Every face of the letter's font fallback chain (lib/letter/render/font-files.ts, docs/letter.md#fonts).
      fonts: ALL_FONT_FILES,
    },
    // docs/api.md#payer-directory: reads the Stedi key only (the directory's own search endpoint).
    payers: { environment: { ...stediEnv, ...corsEnv }, grants: [readSecret(stediSecret), decryptVia('secretsmanager')] },
    // docs/mcp.md: the tools run the eligibility, COB and payer routes, so it needs what they need (no Idempotency-Key over MCP).
    // get_batch_status reads the batch table (docs/batch.md#poll).
    mcp: {
      environment: { ...stediEnv, ...discoveryEnv, ...corsEnv },
      grants: [readSecret(stediSecret), getEnrollment(), ...discoveryRows(), decryptVia('secretsmanager', 'dynamodb')],
    },
    batch: {
      environment: { ...batchEnv, BATCH_MAX_PENDING_ITEMS: String(settings.batch.maxPendingItems), ...idempotencyEnv, ...corsEnv },
      grants: [
        onBatchTable('GetItem', 'BatchWriteItem', 'UpdateItem', 'Query'),
        onBatchStateIndex(),
        sendTo(batch.itemQueue, batch.webhookQueue),
        ...idempotencyGrants(),
        writeEncrypted('dynamodb', 'sqs'),
        decryptVia('dynamodb', 'sqs'),
      ],
    },
    'batch-worker': {
      environment: { ...batchEnv, ...stediEnv, ...discoveryEnv, BATCH_RETRY_HOURS: String(settings.batch.retryHours) },
      grants: [
        readSecret(stediSecret),
        getEnrollment(),
        // BatchGetItem: the batch and the item's submitted entry in one read (lib/batch/adapters/dynamodb.ts, batchAndSubmitted).
        // PutItem: a discovery an item's discoverOnInactive starts (docs/finding-coverage.md#storage).
        onBatchTable('GetItem', 'BatchGetItem', 'UpdateItem', 'Query', 'PutItem'),
        consume(batch.itemQueue),
        sendTo(batch.webhookQueue),
        writeEncrypted('dynamodb', 'sqs'),
        decryptVia('secretsmanager', 'dynamodb', 'sqs'),
      ],
    },
    'batch-webhook': {
      // The token secret holds each client's webhook signing secret (docs/batch.md#webhook-secrets).
      environment: { ...batchEnv, API_TOKENS_SECRET_ARN: tokensSecret.secretArn },
      grants: [readSecret(tokensSecret), onBatchTable('GetItem'), consume(batch.webhookQueue), decryptVia('secretsmanager', 'dynamodb', 'sqs')],
    },
    'not-found': answersAlone,
    health: answersAlone,
    openapi: answersAlone,
    // The API reference page loads Scalar's standalone script, shipped beside the bundle (lib/http/docs-page.ts).
    docs: { ...answersAlone, assets: [SCALAR_SCRIPT] },
  };
}
