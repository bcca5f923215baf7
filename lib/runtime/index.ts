import { environment, readConfig, sandboxUpstreams, type Config, type Env } from '../config/index.js';
import { readSecret, SECRETS, type SecretSource } from '../config/secrets.js';
import type { EnrollmentStore } from '../enrollment/types.js';
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { log } from '../logging/index.js';
import { payerDirectory, type PayerDirectory } from '../payers/directory.js';
import { searchStediPayers } from '../upstream/stedi-payers.js';

/**
 * What the route functions need from the outside world, built once per Lambda container from the
 * environment (README.md#configuration). The local server sets the same variables (sandbox URLs and keys, a
 * dynalite endpoint), so the handlers are identical locally and in AWS.
 */
export interface Runtime {
  config: Config;
  enrollments(): Promise<EnrollmentStore>;
  /** The upstream key, or CONFIGURATION_ERROR naming only the missing setting. */
  stediKey(): Promise<Result<string>>;
  anthropicKey(): Promise<Result<string>>;
  /** Upstreams answered by the built-in sandboxes (logged with each call). */
  sandbox: { stedi: boolean; anthropic: boolean };
  /**
   * Stedi's payer directory, cached for this container (docs/api.md#payer-directory). Without it
   * the PAYER_NOT_SUPPORTED gate lets every payer through.
   */
  payers?: PayerDirectory;
  /**
   * Sent as `Idempotency-Key` on the clearinghouse calls made through this runtime: a batch item's
   * attempt sets it (docs/batch.md#engine), so a redelivered attempt is never charged twice.
   */
  upstreamIdempotencyKey?: string;
}

/** A directory lookup stands in front of a paid check: it gets a short budget of its own. */
const PAYER_DIRECTORY_TIMEOUT_MS = 3_000;

async function key(source: SecretSource, what: string, env: Env): Promise<Result<string>> {
  try {
    const value = await readSecret(source, env);
    return value
      ? ok(value)
      : fail(serviceError('CONFIGURATION_ERROR', { message: `The ${what} API key is not configured (${source.arnVariable} or ${source.valueVariable})` }));
  } catch {
    return fail(serviceError('CONFIGURATION_ERROR', { message: `The ${what} API key could not be read from ${source.arnVariable}` }));
  }
}

export function runtimeFromEnv(env: Env = environment()): Runtime & { payers: PayerDirectory } {
  const config = readConfig(env);
  let store: Promise<EnrollmentStore> | undefined;
  const stediKey = () => key(SECRETS.stedi, 'clearinghouse', env);
  const sandbox = sandboxUpstreams(env);
  const payers = payerDirectory({
    search: async (search) => {
      const apiKey = await stediKey();
      if (!apiKey.ok) return apiKey;
      const started = performance.now();
      const call = await searchStediPayers({ baseUrl: config.stediBaseUrl, apiKey: apiKey.value, timeoutMs: PAYER_DIRECTORY_TIMEOUT_MS }, search);
      log.info('payer directory upstream', {
        upstream: 'stedi-payers',
        sandbox: sandbox.stedi,
        attempts: call.attempts,
        upstreamMs: Math.round(performance.now() - started),
        ...(call.traceId ? { traceId: call.traceId } : {}),
        ...(call.result.ok ? {} : { code: call.result.error.code }),
      });
      return call.result;
    },
  });
  return {
    config,
    enrollments: () => (store ??= dynamoStore(config.enrollmentsTable)),
    stediKey,
    anthropicKey: () => key(SECRETS.anthropic, 'Anthropic', env),
    sandbox,
    payers,
  };
}

/**
 * The DynamoDB-backed store, with the SDK loaded on first use (not at import): mock requests and
 * the other routes never pay for it. The SDK reads AWS_ENDPOINT_URL_DYNAMODB, which the local
 * server points at dynalite.
 */
async function dynamoStore(tableName: string | undefined): Promise<EnrollmentStore> {
  if (!tableName) throw new Error('ENROLLMENTS_TABLE is not set');
  const [{ DynamoDBClient }, { DynamoDBDocumentClient }, { dynamoEnrollmentStore }] = await Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('@aws-sdk/lib-dynamodb'),
    import('../enrollment/dynamodb.js'),
  ]);
  return dynamoEnrollmentStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), tableName);
}
