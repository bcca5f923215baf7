import { describe, it, expect, jest, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { LocalEnvironment } from '../../infra/dev/local/environment.js';
import { answerProblem } from '../support/answer-shape.js';
import { apiEvent, lambdaContext } from '../support/events.js';
import { CONTENT_TYPES, hostileDocument, mutateBody, mutateText, rng, seedFromEnv, type Rng } from './generate.js';

/**
 * Route fuzzing: hundreds of generated and mutated bodies per route, through each function's
 * handler in process (the same handler API Gateway invokes), with the sandboxes behind it so bodies
 * that happen to be valid go all the way. No crash, no status outside the error table (docs/api.md#errors), no 500
 * except the mock's exact body, and every answer is a JSON object with a string `message`.
 * A fixed number of cases per route from a fixed seed, so every run on every machine makes the same
 * cases; FUZZ_SEED and FUZZ_ROUTE_COUNT make a different or deeper run (the seed is printed on failure).
 * The counts are about what a whole `npm test` reached under the time box this replaced (4 s a route:
 * 200 eligibility, 660 COB and 200 letter cases on two busy cores), where the number of cases depended
 * on how loaded the machine was (a quiet machine reached 2,500 / 2,500 / ~670, which
 * `FUZZ_ROUTE_COUNT=2500` still asks for). A letter case costs several times an eligibility case (a
 * valid one renders a PDF).
 */
type RouteName = 'eligibility' | 'cob' | 'letter';
const SEED = seedFromEnv();
const ROUTE_COUNT = process.env.FUZZ_ROUTE_COUNT === undefined ? undefined : Number(process.env.FUZZ_ROUTE_COUNT);
const PER_ROUTE: Record<RouteName, number> = { eligibility: ROUTE_COUNT ?? 600, cob: ROUTE_COUNT ?? 600, letter: ROUTE_COUNT ?? 200 };

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number; headers?: Record<string, string>; body?: string }>;

const ROUTE_KEYS: Record<RouteName, string> = {
  eligibility: 'POST /api/eligibility/v1',
  cob: 'POST /api/eligibility/cob/v1',
  letter: 'POST /api/generate-letter',
};
const eventBody = (file: string) =>
  JSON.parse(JSON.parse(readFileSync(new URL(`../../events/${file}`, import.meta.url), 'utf8')).body) as Record<string, unknown>;
const VALID: Record<RouteName, Record<string, unknown>[]> = {
  eligibility: [
    ...[
      'eligibility-mock-1.json',
      'eligibility-mock-2.json',
      'eligibility-mock-3.json',
      'eligibility-mock-4.json',
      'eligibility-mock-with-cob.json',
      'eligibility-real.json',
    ].map(eventBody),
    { ...eventBody('eligibility-real.json'), serviceTypeCodes: ['30', '33', 'UC'], procedureCodes: ['99213', 'D0120'] },
  ],
  cob: ['cob-mock.json', 'cob-real.json'].map(eventBody),
  letter: ['letter-text.json', 'letter-pdf.json'].map(eventBody),
};

/** Statuses the error table (docs/api.md#errors) and success paths allow. */
const ALLOWED = new Set([200, 400, 403, 413, 415, 422, 500, 502, 503, 504]);
const EXACT_500 = new Set(['{"message":"Mock request not found"}']);

function violation(route: RouteName, result: Awaited<ReturnType<Handler>>): string | undefined {
  if (!ALLOWED.has(result.statusCode)) return `status ${result.statusCode}`;
  let body: unknown;
  try {
    body = JSON.parse(result.body ?? '');
  } catch {
    return `status ${result.statusCode} with a non-JSON body`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `status ${result.statusCode} with a non-object body`;
  // Every error carries a message (docs/api.md#errors); of the successes, eligibility's carries one too;
  // COB and letter successes have their own shapes (docs/api.md#coordination-of-benefits, docs/letter.md#response).
  const needsMessage = result.statusCode !== 200 || route === 'eligibility';
  if (needsMessage && typeof (body as { message?: unknown }).message !== 'string') return `status ${result.statusCode} without a message`;
  if (result.statusCode === 200 && route === 'cob' && typeof (body as { cobCode?: unknown }).cobCode !== 'string') return '200 COB answer without cobCode';
  if (result.statusCode === 200 && route === 'eligibility' && (body as { message?: unknown }).message === 'Eligibility check successful') {
    const shape = answerProblem(body);
    if (shape) return `200 eligibility answer outside docs/eligibility.md#the-response: ${shape}`;
  }
  if (result.statusCode === 200 && route === 'letter' && typeof (body as { timestamp?: unknown }).timestamp !== 'string')
    return '200 letter answer without timestamp';
  if (result.statusCode === 500 && !(route !== 'letter' && EXACT_500.has(result.body!))) return `500 outside docs/api.md#errors: ${result.body!.slice(0, 200)}`;
  if (!result.headers?.['x-request-id']) return `status ${result.statusCode} without x-request-id`;
  return undefined;
}

/** One fuzz case: raw body text and Content-Type (null = no header). */
function nextCase(r: Rng, route: RouteName): { raw: string; contentType: string | null } {
  const valid = r.pick(VALID[route]);
  const roll = r.next();
  if (roll < 0.7) return { raw: JSON.stringify(mutateBody(r, valid)), contentType: 'application/json' };
  if (roll < 0.8) return { raw: hostileDocument(r), contentType: 'application/json' };
  if (roll < 0.9) return { raw: mutateText(r, JSON.stringify(valid)), contentType: 'application/json' };
  return { raw: JSON.stringify(valid), contentType: r.chance(0.1) ? null : r.pick(CONTENT_TYPES) };
}

let environment: LocalEnvironment;
const handlers = {} as Record<RouteName, Handler>;

beforeAll(async () => {
  process.env.UPSTREAM_BUDGET_MS = '3000';
  process.env.LETTER_BUDGET_MS = '3000';
  const { startLocalEnvironment } = await import('../support/local-environment.js');
  environment = await startLocalEnvironment(process.env);
  // Imported after the environment is set: each function reads its configuration at load.
  // loadHandler installs the local `awslambda` stand-in the streamed letter function needs; invokeHandler
  // collects a streamed answer into the same shape as a buffered one.
  const { loadHandler } = await import('../../infra/dev/local/routes.js');
  const { invokeHandler } = await import('../../infra/dev/local/awslambda.js');
  for (const route of ['eligibility', 'cob', 'letter'] as const) {
    const handler = await loadHandler(route);
    handlers[route] = (event, context) => invokeHandler(handler, event, context);
  }
  // pdf-lib warns on console about the broken PDFs it is fed; the answers are what is checked.
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
}, 30_000);

afterAll(async () => {
  jest.restoreAllMocks();
  await environment?.close();
});

describe(`route fuzzing (seed ${SEED})`, () => {
  it.each(['eligibility', 'cob', 'letter'] as const)(
    '%s: every generated or mutated body gets a contract answer',
    async (route) => {
      const r = rng(SEED ^ (route.length * 0x9e3779b1));
      const problems: string[] = [];
      const statuses: Record<number, number> = {};
      let ran = 0;
      for (; ran < PER_ROUTE[route]; ran++) {
        const { raw, contentType } = nextCase(r, route);
        let problem: string | undefined;
        try {
          const result = await handlers[route](apiEvent(ROUTE_KEYS[route], undefined, { rawBody: raw, contentType }), lambdaContext);
          statuses[result.statusCode] = (statuses[result.statusCode] ?? 0) + 1;
          problem = violation(route, result);
        } catch (error) {
          problem = `handler threw ${(error as Error)?.name}`;
        }
        if (problem && problems.length < 5) problems.push(`case #${ran} (${raw.length} chars, content-type ${contentType}): ${problem}`);
      }
      if (process.env.BENCH_VERBOSE) console.log(`fuzz ${route}: ${ran} cases`, statuses);
      expect({ seed: SEED, problems }).toEqual({ seed: SEED, problems: [] });
      // The mix reaches both the validator and the routes behind it.
      expect(statuses[400]).toBeGreaterThan(0);
      expect(statuses[200]).toBeGreaterThan(0);
    },
    // Jest's limit grows with the count, so FUZZ_ROUTE_COUNT can ask for a deeper run (a letter case can take 15 ms on two busy cores).
    30_000 + Math.max(...Object.values(PER_ROUTE)) * 50,
  );
});
