import type { Context } from 'aws-lambda';
import { fail, ok, ServiceFailure, serviceError, type Result } from '../errors/index.js';
import { log } from '../logging/index.js';
import type { HttpResponse } from './response.js';

/**
 * Idempotency keys on POST routes (docs/runtime.md#idempotency), with Powertools idempotency over
 * DynamoDB. A request carrying `Idempotency-Key` runs once per client, route and key for 24 h:
 * a repeat with the same body gets the stored answer (same status and body, plus
 * `Idempotent-Replayed: true`) without reaching any upstream; a different body is 422
 * IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 REQUEST_IN_PROGRESS.
 * 5xx answers are not stored, so a retry after an outage runs again.
 *
 * Powertools and the DynamoDB client are loaded on the first request that carries a key, so
 * requests without one (and the cold start) never pay for them.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** 1–255 visible ASCII characters (no spaces, no control characters). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/**
 * A DynamoDB item holds at most 400 KB; an answer larger than this (a long PDF letter) is sent
 * but not stored, and the key is released so a retry runs again.
 */
export const MAX_STORED_RESPONSE_BYTES = 350 * 1024;

/** The key from lower-cased request headers: absent → undefined; present but malformed → 400. */
export function readIdempotencyKey(headers: Record<string, string | undefined>): Result<string | undefined> {
  const value = headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return ok(undefined);
  if (KEY_SHAPE.test(value)) return ok(value);
  return fail(
    serviceError('INVALID_REQUEST', {
      errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters (letters, digits, punctuation; no spaces)' }],
    }),
  );
}

export interface IdempotencyScope {
  table: string;
  /** Route name: keys are separate per route (and per client). */
  route: string;
  clientId: string;
  key: string;
  /** The validated request body; a repeat must carry an equal one (key order does not matter). */
  body: unknown;
  requestId: string;
  /** The invocation's context, so an in-progress record expires when the function would have timed out. */
  context: Pick<Context, 'getRemainingTimeInMillis'>;
}

/** Thrown out of the idempotent function so Powertools releases the key instead of storing the answer. */
class NotStored extends Error {
  constructor(readonly response: HttpResponse) {
    super('answer not stored');
    this.name = 'NotStored';
  }
}

type Powertools = typeof import('@aws-lambda-powertools/idempotency') & {
  DynamoDBPersistenceLayer: typeof import('@aws-lambda-powertools/idempotency/dynamodb').DynamoDBPersistenceLayer;
};
type PersistenceLayer = InstanceType<Powertools['DynamoDBPersistenceLayer']>;

let powertools: Promise<Powertools> | undefined;
/** One after the other: the two share modules, and Jest's ESM loader fails on concurrent links of one module. */
async function importPowertools(): Promise<Powertools> {
  const core = await import('@aws-lambda-powertools/idempotency');
  const { DynamoDBPersistenceLayer } = await import('@aws-lambda-powertools/idempotency/dynamodb');
  return { ...core, DynamoDBPersistenceLayer };
}
const loadPowertools = (): Promise<Powertools> => (powertools ??= importPowertools());

/**
 * One persistence layer per table and route: a layer keeps its key prefix as state, so routes
 * sharing one process (the local server) must not share a layer.
 */
const layers = new Map<string, PersistenceLayer>();

function layerFor(pt: Powertools, table: string, route: string): PersistenceLayer {
  const id = `${table}\u0000${route}`;
  let layer = layers.get(id);
  if (!layer) {
    // The SDK reads region, credentials and AWS_ENDPOINT_URL_DYNAMODB (dynalite locally) from the environment.
    layer = new pt.DynamoDBPersistenceLayer({ tableName: table });
    layers.set(id, layer);
  }
  return layer;
}

const fits = (response: HttpResponse): boolean => Buffer.byteLength(JSON.stringify(response)) <= MAX_STORED_RESPONSE_BYTES;

/** What happened to a request that carried a key (joins its access-log line). */
export type IdempotencyOutcome = 'stored' | 'replayed' | 'not-stored';

/**
 * Runs `run` at most once per (route, client, key) within 24 h, answering repeats as described
 * above. Throws ServiceFailure for 409/422; lets store outages through as exceptions (500).
 */
export async function runIdempotent(
  scope: IdempotencyScope,
  run: () => Promise<HttpResponse>,
): Promise<{ response: HttpResponse; idempotency: IdempotencyOutcome }> {
  const pt = await loadPowertools();
  let replayed = false;
  let answered: HttpResponse | undefined;
  const config = new pt.IdempotencyConfig({
    eventKeyJmesPath: '[clientId, key]',
    payloadValidationJmesPath: 'body',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    hashFunction: 'sha256',
    lambdaContext: scope.context as Context,
    responseHook: (stored) => {
      replayed = true;
      const response = stored as unknown as HttpResponse;
      return { ...response, headers: { ...response.headers, 'x-request-id': scope.requestId, [REPLAYED_HEADER]: 'true' } };
    },
  });

  const once = pt.makeIdempotent(
    async (_input: { clientId: string; key: string; body: unknown }): Promise<HttpResponse> => {
      const response = await run();
      answered = response;
      if (response.statusCode >= 500 || !fits(response)) throw new NotStored(response);
      return response;
    },
    { persistenceStore: layerFor(pt, scope.table, scope.route), config, keyPrefix: scope.route },
  );

  try {
    const response = await once({ clientId: scope.clientId, key: scope.key, body: scope.body });
    return { response, idempotency: replayed ? 'replayed' : 'stored' };
  } catch (error) {
    if (error instanceof NotStored) return { response: error.response, idempotency: 'not-stored' };
    const name = (error as Error | undefined)?.name;
    if (name === 'IdempotencyValidationError') throw new ServiceFailure(serviceError('IDEMPOTENCY_KEY_REUSED'));
    if (name === 'IdempotencyAlreadyInProgressError') throw new ServiceFailure(serviceError('REQUEST_IN_PROGRESS'));
    // The work is done but its record could not be written or released: the caller still gets
    // the answer (an unreleased in-progress record expires when this invocation would have).
    if (name === 'IdempotencyPersistenceLayerError' && answered) {
      log.warn('idempotency record not saved', { route: scope.route, idempotency: 'not-stored' });
      return { response: answered, idempotency: 'not-stored' };
    }
    throw error;
  }
}
