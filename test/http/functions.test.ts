/**
 * The function table (lib/http/functions.ts) is the one list of functions: its rows are the folders
 * of functions/, its routes are the route table, and its streaming column says which handlers stream.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FUNCTION_NAMES, FUNCTION_TABLE, functionEntry } from '../../lib/http/functions.js';
import { ROUTE_TABLE } from '../../lib/http/routes.js';
import { isStreamingHandler } from '../../infra/dev/local/awslambda.js';
import { loadHandler } from '../../infra/dev/local/routes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the function table', () => {
  it('has one row per folder of functions/, each with its entry', () => {
    expect([...FUNCTION_NAMES].sort()).toEqual(readdirSync(`${root}functions`).sort());
    for (const name of FUNCTION_NAMES) expect([name, existsSync(`${root}${functionEntry(name)}`)]).toEqual([name, true]);
  });

  it('its routes, in its order, are the route table', () => {
    expect(ROUTE_TABLE.map((route) => `${route.function} ${route.method} ${route.path}`)).toEqual(
      FUNCTION_NAMES.flatMap((name) => FUNCTION_TABLE[name].routes.map((route) => `${name} ${route.method} ${route.path}`)),
    );
    // The OpenAPI document lists paths in this order.
    expect([...new Set(ROUTE_TABLE.map((route) => route.function))]).toEqual([
      'eligibility',
      'cob',
      'letter',
      'fhir',
      'discovery',
      'medicare',
      'batch',
      'payers',
      'mcp',
      'health',
      'openapi',
      'docs',
    ]);
  });

  it('says which handlers stream: exactly those wrapped with streamifyResponse', async () => {
    // The batch function reads its table and queues when imported (nothing is called).
    const saved = { ...process.env };
    Object.assign(process.env, { BATCH_TABLE: 'batch', BATCH_QUEUE_URL: 'http://127.0.0.1:9/items', BATCH_WEBHOOK_QUEUE_URL: 'http://127.0.0.1:9/hooks' });
    const streamed: string[] = [];
    for (const name of ['letter', 'batch', 'eligibility', 'health', 'not-found'] as const) {
      if (isStreamingHandler(await loadHandler(name))) streamed.push(name);
    }
    process.env = saved;
    expect(streamed).toEqual(['letter', 'batch']);
    expect(FUNCTION_NAMES.filter((name) => FUNCTION_TABLE[name].streaming)).toEqual(['letter', 'batch']);
  }, 60_000);
});
