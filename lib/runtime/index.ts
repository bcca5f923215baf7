/**
 * The runtime of a warm container (docs/architecture.md#ports-and-adapters): configuration, the one clock,
 * the enrollment store, the clearinghouse and the language model behind their ports, the payer directory.
 *
 * @example
 * ```ts
 * import { runtimeFromEnv } from '../runtime/index.js';
 * const runtime = runtimeFromEnv(); // once per container; every route reads it
 * ```
 */
import {
  type Clock,
  type Config,
  type Env,
  environment,
  readConfig,
  readSecret,
  sandboxUpstreams,
  SECRETS,
  type SecretSource,
  systemClock,
} from '../config/index.js';
import type { EnrollmentStore } from '../enrollment/index.js';
import { fail, ok, type Result, serviceError } from '../errors/index.js';
import { log } from '../logging/index.js';
import { payerDirectory, type PayerDirectory } from '../payers/index.js';
import { anthropicModel, stediClearinghouse } from '../upstream/index.js';
import type { Clearinghouse } from './clearinghouse.js';
import type { LanguageModel } from './model.js';

/**
 * What the route functions need from the outside world, built once per Lambda container from the
 * environment (README.md#configuration). The local server sets the same variables (sandbox URLs and keys, a
 * dynalite endpoint), so the handlers are identical locally and in AWS. The ports (the clearinghouse,
 * the language model, the enrollment store) are the domain's; the adapters behind them are picked here
 * (docs/architecture.md#ports-and-adapters).
 */
export interface Runtime {
  config: Config;
  /** The one clock every route reads (docs/architecture.md#time). */
  clock: Clock;
  enrollments(): Promise<EnrollmentStore>;
  /** Eligibility, COB and the payer directory's upstream; it fetches its own key per call. */
  clearinghouse: Clearinghouse;
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
    payers,
  };
}

/**
 * A runtime with the language model (./model.ts): what the functions that write letters or read cards
 * build, `withModel(runtimeFromEnv())`. The model is not on every runtime, so the other functions'
 * bundles carry none of its code (docs/deployment.md#side-bundles).
 */
export interface ModelRuntime extends Runtime {
  /** The model that writes letters and reads cards; it fetches its own key per call. */
  model: LanguageModel;
}

/**
 * `runtime` with the Messages API adapter as its model: the model id and base URL from the runtime's
 * configuration, the key from `env` (read per call), retries timed on the runtime's clock.
 */
export function withModel<R extends Runtime>(runtime: R, env: Env = environment()): R & ModelRuntime {
  const { config, clock } = runtime;
  const model = anthropicModel({
    model: config.letterModel,
    apiKey: () => key(SECRETS.anthropic, 'Anthropic', env),
    ...(config.anthropicBaseUrl ? { baseURL: config.anthropicBaseUrl } : {}),
    sandbox: sandboxUpstreams(env).anthropic,
    tuning: { clock },
  });
  return { ...runtime, model };
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

export type { Clearinghouse } from './clearinghouse.js';
export type { LanguageModel, Message, MessageRequest, MessagesFailure, MessagesFailureKind, MessagesResult } from './model.js';
export { dynamoEnrollmentStore } from './enrollment-dynamodb.js';
