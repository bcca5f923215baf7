/**
 * Stedi's insurance discovery (docs/finding-coverage.md#upstream): `POST /insurance-discovery/check/v1`
 * starts a check, `GET /insurance-discovery/check/v1/{discoveryId}` reads its result (PENDING or
 * COMPLETE, kept by Stedi for 24 h). Both go through the shared retry policy and read at most
 * BODY_CAPS.discovery (10 MiB) of the answer. The JSON object is handed back as is: the domain
 * (lib/discovery/from-stedi.ts) picks the fields it relies on.
 */
import { fail, ok } from '../errors/index.js';
import { BODY_CAPS } from './body.js';
import { isJsonObject } from './json.js';
import type { Attempt } from './retry.js';
import { callStedi, parseJson, unreadable, type HttpAnswer, type StediCall, type StediConnection, type StediRetryTuning } from './stedi.js';

const DISCOVERY_PATH = '/insurance-discovery/check/v1';

export interface DiscoveryAnswer {
  httpStatus: number;
  /** The answer's JSON object. */
  body: Record<string, unknown>;
}

const readObject = (answer: HttpAnswer): Attempt<DiscoveryAnswer> => {
  const parsed = parseJson(answer.text);
  if (!parsed.ok || !isJsonObject(parsed.value)) return fail(unreadable('not a JSON object'));
  return ok({ httpStatus: answer.status, body: parsed.value });
};

/** Starts a discovery check with Stedi's request body (lib/discovery builds it). */
export function postDiscovery(connection: StediConnection, request: unknown, tuning?: StediRetryTuning): Promise<StediCall<DiscoveryAnswer>> {
  const json = JSON.stringify(request);
  return callStedi(connection, DISCOVERY_PATH, () => json, readObject, tuning, { capBytes: BODY_CAPS.discovery });
}

/** Reads a discovery's result by Stedi's `discoveryId`. */
export function getDiscovery(connection: StediConnection, discoveryId: string, tuning?: StediRetryTuning): Promise<StediCall<DiscoveryAnswer>> {
  const path = `${DISCOVERY_PATH}/${encodeURIComponent(discoveryId)}`;
  return callStedi(connection, path, undefined, readObject, tuning, { method: 'GET', capBytes: BODY_CAPS.discovery });
}
