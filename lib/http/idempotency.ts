import type { Context } from 'aws-lambda';
import { fail, ok, ServiceFailure, serviceError, type Result } from '../errors/index.js';
import { log } from '../logging/index.js';
import type { Answer } from './middleware/state.js';

/**
 * Idempotency keys on POST routes (docs/runtime.md#idempotency), with Powertools idempotency over
 * DynamoDB. A request carrying `Idempotency-Key` runs once per client, route and key for 24 h:
 * a repeat with the same body gets the stored answer (same status and body, plus
 * `Idempotent-Replayed: true`) without reaching any upstream; a different body is 422
 * IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs is 409 REQUEST_IN_PROGRESS.
 * 5xx answers are not stored, nor answers that embed a transient failure (an eligibility answer
 * whose COB part was unavailable), so a retry after an outage runs again. A replay carries the
 * current request's id, in the header and in an error body's `requestId`. An answer too large for
 * one DynamoDB item is stored in the compact form its route gave (the letter's render input) and
 * rebuilt byte for byte on replay; without one it is sent but not stored.
 *
 * Powertools and the DynamoDB client are loaded on the first request that carries a key, so
 * requests without one (and the cold start) never pay for them.
 */

const IDEMPOTENCY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';
const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** 1–255 visible ASCII characters (no spaces, no control characters). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** A DynamoDB item holds at most 400 KB; a stored answer (or its compact form) stays under this. */
const MAX_STORED_RESPONSE_BYTES = 350 * 1024;

/** The key from lower-cased request headers: absent → undefined; present but malformed → 400. */
export function readIdempotencyKey(headers: Record<string, string | undefined>): Result<string | undefined> {
  const value = headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return ok(undefined);
  if (KEY_SHAPE.test(value)) return ok(value);
  return fail(
    serviceError('INVALID_REQUEST', {
      message: 'The Idempotency-Key header is invalid',
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
  /** Rebuilds a body from the compact form its route gave; without it, compact forms are not stored. */
  expand?: Expand;
}

/** Rebuilds an answer's body (the value JSON.stringify gave the first time) from its compact form. */
export type Expand = (compact: unknown) => Promise<unknown>;

/** What the store keeps for an answer: the response itself, or its compact form. */
type Stored = { statusCode: number; headers: Record<string, string> } & ({ body: string } | { compact: unknown });

/** Thrown out of the idempotent function so Powertools releases the key instead of storing the answer. */
class NotStored extends Error {
  constructor(readonly answer: Answer) {
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

const fits = (stored: Stored): boolean => Buffer.byteLength(JSON.stringify(stored)) <= MAX_STORED_RESPONSE_BYTES;

/** The form to store for an answer, or undefined when it must not be stored. */
function storedForm(answer: Answer, expand: Expand | undefined): Stored | undefined {
  const { statusCode, headers, body } = answer.response;
  if (statusCode >= 500 || answer.transient) return undefined;
  const whole: Stored = { statusCode, headers, body };
  if (fits(whole)) return whole;
  if (answer.compact === undefined || !expand) return undefined;
  const compact: Stored = { statusCode, headers, compact: answer.compact };
  return fits(compact) ? compact : undefined;
}

/** A stored error body names the request that made it; its replay names the current one. */
function withRequestId(body: string, statusCode: number, requestId: string): string {
  if (statusCode < 400) return body;
  const parsed = JSON.parse(body) as unknown;
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { requestId?: unknown }).requestId !== 'string') return body;
  return JSON.stringify({ ...parsed, requestId });
}

async function replay(stored: Stored, scope: IdempotencyScope): Promise<Answer> {
  const body = 'compact' in stored ? JSON.stringify(await scope.expand!(stored.compact)) : withRequestId(stored.body, stored.statusCode, scope.requestId);
  return { response: { statusCode: stored.statusCode, headers: { ...stored.headers, 'x-request-id': scope.requestId, [REPLAYED_HEADER]: 'true' }, body } };
}

/** What happened to a request that carried a key (joins its access-log line). */
export type IdempotencyOutcome = 'stored' | 'replayed' | 'not-stored';

/**
 * Runs `run` at most once per (route, client, key) within 24 h, answering repeats as described
 * above. Throws ServiceFailure for 409/422; lets store outages through as exceptions (500).
 */
export async function runIdempotent(scope: IdempotencyScope, run: () => Promise<Answer>): Promise<{ answer: Answer; idempotency: IdempotencyOutcome }> {
  const pt = await loadPowertools();
  let replayed = false;
  let answered: Answer | undefined;
  const config = new pt.IdempotencyConfig({
    eventKeyJmesPath: '[clientId, key]',
    payloadValidationJmesPath: 'body',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    hashFunction: 'sha256',
    lambdaContext: scope.context as Context,
    responseHook: (stored) => {
      replayed = true;
      return stored;
    },
  });

  const once = pt.makeIdempotent(
    async (_input: { clientId: string; key: string; body: unknown }): Promise<Stored> => {
      const answer = await run();
      answered = answer;
      const stored = storedForm(answer, scope.expand);
      if (!stored) throw new NotStored(answer);
      return stored;
    },
    { persistenceStore: layerFor(pt, scope.table, scope.route), config, keyPrefix: scope.route },
  );

  try {
    const stored = await once({ clientId: scope.clientId, key: scope.key, body: scope.body });
    if (replayed) return { answer: await replay(stored, scope), idempotency: 'replayed' };
    return { answer: answered!, idempotency: 'stored' };
  } catch (error) {
    if (error instanceof NotStored) return { answer: error.answer, idempotency: 'not-stored' };
    const name = (error as Error | undefined)?.name;
    if (name === 'IdempotencyValidationError') throw new ServiceFailure(serviceError('IDEMPOTENCY_KEY_REUSED'));
    if (name === 'IdempotencyAlreadyInProgressError') throw new ServiceFailure(serviceError('REQUEST_IN_PROGRESS'));
    // The work is done but its record could not be written or released: the caller still gets
    // the answer (an unreleased in-progress record expires when this invocation would have).
    if (name === 'IdempotencyPersistenceLayerError' && answered) {
      log.warn('idempotency record not saved', { route: scope.route, idempotency: 'not-stored' });
      return { answer: answered, idempotency: 'not-stored' };
    }
    throw error;
  }
}
