import { systemClock, type Clock } from '../config/clock.js';
import { environment, readConfig, sandboxUpstreams, type Config, type Env } from '../config/index.js';
import { readSecret, SECRETS, type SecretSource } from '../config/secrets.js';
import type { EnrollmentStore } from '../enrollment/types.js';
import { fail, ok, serviceError, type Result } from '../errors/index.js';
import { log } from '../logging/index.js';
import { payerDirectory, type PayerDirectory } from '../payers/directory.js';
import { stediClearinghouse } from '../upstream/clearinghouse.js';
import type { Clearinghouse } from './clearinghouse.js';

/**
 * What the route functions need from the outside world, built once per Lambda container from the
 * environment (README.md#configuration). The local server sets the same variables (sandbox URLs and keys, a
 * dynalite endpoint), so the handlers are identical locally and in AWS. The ports (the clearinghouse,
 * the enrollment store) are the domain's; the adapters behind them are picked here
 * (docs/architecture.md#ports-and-adapters).
 */
export interface Runtime {
  config: Config;
  /** The one clock every route reads (docs/architecture.md#time). */
  clock: Clock;
  enrollments(): Promise<EnrollmentStore>;
  /** Eligibility, COB and the payer directory's upstream; it fetches its own key per call. */
  clearinghouse: Clearinghouse;
  anthropicKey(): Promise<Result<string>>;
  /** Whether the built-in Messages API sandbox answers letters (logged with each call). */
  sandbox: { anthropic: boolean };
  /**
   * The clearinghouse's payer directory, cached for this container (docs/api.md#payer-directory).
   * Without it the PAYER_NOT_SUPPORTED gate lets every payer through.
   */
  payers?: PayerDirectory;
  /**
   * A batch item's attempt (docs/batch.md#engine): its upstream request key, sent as `Idempotency-Key`
   * on the clearinghouse calls made through this runtime so a redelivered attempt is never charged
   * twice, and when the attempt started. A 270 built under it takes its control numbers from the key
   * and its date and time from `startedAt`: a repeat under one key is the same bytes, before and after
   * a restart. Real-time requests have none and get fresh 270s.
   */
  upstreamAttempt?: UpstreamAttempt;
}

/** See {@link Runtime.upstreamAttempt}. */
export interface UpstreamAttempt {
  key: string;
  /** Epoch milliseconds. */
  startedAt: number;
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

/** The runtime of a container: adapters chosen from `env`, every time read on `clock`. */
export function runtimeFromEnv(env: Env = environment(), clock: Clock = systemClock): Runtime & { payers: PayerDirectory } {
  const config = readConfig(env);
  let store: Promise<EnrollmentStore> | undefined;
  const sandbox = sandboxUpstreams(env);
  const clearinghouse: Clearinghouse = stediClearinghouse({
    baseUrl: config.stediBaseUrl,
    discoveryBaseUrl: config.stediDiscoveryBaseUrl,
    apiKey: () => key(SECRETS.stedi, 'clearinghouse', env),
    budgetMs: config.upstreamBudgetMs,
    payerSearchBudgetMs: PAYER_DIRECTORY_TIMEOUT_MS,
    sandbox: sandbox.stedi,
    retry: { clock },
  });
  const payers = payerDirectory({
    clock,
    search: async (search) => {
      const { result, meta } = await clearinghouse.searchPayers(search);
      log.info('payer directory upstream', {
        upstream: meta.upstream,
        sandbox: clearinghouse.sandbox,
        attempts: meta.attempts,
        upstreamMs: Math.round(meta.latencyMs),
        ...(meta.traceId ? { traceId: meta.traceId } : {}),
        ...(result.ok ? {} : { code: result.error.code }),
      });
      return result;
    },
  });
  return {
    config,
    clock,
    enrollments: () => (store ??= dynamoStore(config.enrollmentsTable)),
    clearinghouse,
    anthropicKey: () => key(SECRETS.anthropic, 'Anthropic', env),
    sandbox: { anthropic: sandbox.anthropic },
    payers,
  };
}

/**
 * The DynamoDB adapter of the enrollment store (./enrollment-dynamodb.ts), with the SDK loaded on first
 * use (not at import): mock requests and the other routes never pay for it. The SDK reads
 * AWS_ENDPOINT_URL_DYNAMODB, which the local server points at dynalite.
 */
async function dynamoStore(tableName: string | undefined): Promise<EnrollmentStore> {
  if (!tableName) throw new Error('ENROLLMENTS_TABLE is not set');
  const [{ DynamoDBClient }, { DynamoDBDocumentClient }, { dynamoEnrollmentStore }] = await Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('@aws-sdk/lib-dynamodb'),
    import('./enrollment-dynamodb.js'),
  ]);
  return dynamoEnrollmentStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), tableName);
}
