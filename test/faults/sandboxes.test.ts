import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startClearinghouseSandbox, type ClearinghouseSandbox } from '../../infra/dev/sandbox/clearinghouse.js';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { standingClock, type StandingClock } from '../support/standing-clock.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';

/**
 * Fault injection end to end: HTTP request → local API Gateway stand-in → authorizer → function →
 * upstream, where the upstream is a sandbox behind a counting fault proxy. Every fault must come
 * back as its status and code (docs/api.md#errors), and the retry rule (docs/api.md#upstreams) must hold: exactly
 * two attempts for retryable failures (429/5xx, network errors, AAA 42), one for data errors and
 * timeouts. All cases run concurrently (beforeAll); each `it` then checks one.
 *
 * No outcome depends on how busy the machine is (docs/testing.md#rules-the-suites-keep): the clock the
 * budgets run on stands still (test/support/standing-clock.ts), so a retried case never runs out of
 * budget however slow the machine, and a case that must end by the budget (an upstream that never
 * answers, or trickles) is ended by the test: once the fault proxy has that case's request in flight,
 * the test moves the clock past the budget. That happens after every other case has answered, because
 * all cases share the one clock. That a retry and its wait fit in the budget on the clock is proven on
 * injected clocks (test/upstream/retry.test.ts).
 */
/**
 * The upstream and letter budgets on the standing clock. Long, because wall-clock timeouts are derived
 * from what is left of it (the Messages client's per-attempt timeout): none of them may fire first.
 */
const BUDGET_MS = 5 * 60_000;
/** Longer than the test runs: the slow patient's answer never comes before the budget cuts it. */
const SLOW_MS = 10 * 60_000;
const STEDI_KEY = 'fault-test-key';

type Route = 'eligibility' | 'cob' | 'letter';
interface Case {
  name: string;
  route: Route;
  /** Tag that identifies this case's upstream requests (member id or sandbox marker). */
  tag: string;
  body: Record<string, unknown>;
  status: number;
  code?: string;
  attempts: number;
  retryAfter?: boolean;
}

const PATHS: Record<Route, string> = { eligibility: '/api/eligibility/v1', cob: '/api/eligibility/cob/v1', letter: '/api/generate-letter' };
const UPSTREAM_PATH: Record<Route, string> = { eligibility: '/raw-x12', cob: '/coordination-of-benefits', letter: '/messages' };

const person = (firstName: string, lastName: string, memberId: string, dob = '01-01-1980') => ({
  patientFirstName: firstName,
  patientLastName: lastName,
  patientDOB: dob,
  patientMemberId: memberId,
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
});
const letterBody = JSON.parse(JSON.parse(readFileSync(new URL('../../events/letter-text.json', import.meta.url), 'utf8')).body) as Record<string, unknown>;
const letter = (marker: string) => ({ ...letterBody, patient_name: `Pat ${marker}` });

const elig = (name: string, p: ReturnType<typeof person>, status: number, code: string | undefined, attempts: number, retryAfter = false): Case => ({
  name: `eligibility: ${name}`,
  route: 'eligibility',
  tag: `*MI*${p.patientMemberId}`,
  body: p,
  status,
  code,
  attempts,
  retryAfter,
});
const cob = (name: string, p: ReturnType<typeof person>, status: number, code: string, attempts: number, retryAfter = false): Case => ({
  name: `cob: ${name}`,
  route: 'cob',
  tag: `"${p.patientMemberId}"`,
  body: p,
  status,
  code,
  attempts,
  retryAfter,
});
const ai = (marker: string, status: number, code: string, attempts: number, retryAfter = false): Case => ({
  name: `letter: ${marker}`,
  route: 'letter',
  tag: marker,
  body: letter(marker),
  status,
  code,
  attempts,
  retryAfter,
});

const CASES: Case[] = [
  elig('HTTP 429 every time', person('Quinn', 'Throttle', 'FLT429'), 503, 'PAYER_UNAVAILABLE', 2, true),
  elig('HTTP 500 every time', person('Uma', 'Outage', 'FLT500'), 503, 'PAYER_UNAVAILABLE', 2, true),
  elig('HTTP 500 then success', person('Flynn', 'Flaky', 'FLTFLAKY'), 200, undefined, 2),
  elig('answer slower than the budget', person('Sam', 'Slow', 'FLTSLOW'), 504, 'UPSTREAM_TIMEOUT', 1),
  elig('999 rejecting the 270', person('Nora', 'Nack', 'FLT999'), 502, 'UPSTREAM_ERROR', 1),
  elig('271 cut off before the subscriber loop', person('Tess', 'Truncated', 'FLTTRUNC'), 502, 'UPSTREAM_ERROR', 1),
  elig('malformed JSON body', person('Jay', 'Garbled', 'FLTJSON'), 502, 'UPSTREAM_ERROR', 1),
  elig('AAA 42 every time', person('Paul', 'Young', 'ERR420042', '05-05-1965'), 503, 'PAYER_UNAVAILABLE', 2, true),
  elig('AAA 72 (data error)', person('Kevin', 'Wright', 'ERR720072', '07-07-1990'), 422, 'PAYER_REJECTED', 1),
  elig('connection reset before any answer', person('Rita', 'Reset', 'RST000001'), 503, 'PAYER_UNAVAILABLE', 2, true),
  elig('connection reset half way through the body', person('Mia', 'Midway', 'RST000002'), 503, 'PAYER_UNAVAILABLE', 2, true),
  elig('body trickling slower than the budget', person('Stu', 'Trickle', 'SLOWBODY1'), 504, 'UPSTREAM_TIMEOUT', 1),
  cob('HTTP 429 every time', person('Quinn', 'Throttle', 'FLT429'), 503, 'PAYER_UNAVAILABLE', 2, true),
  cob('HTTP 500 every time', person('Uma', 'Outage', 'FLT500'), 503, 'PAYER_UNAVAILABLE', 2, true),
  cob('answer slower than the budget', person('Sam', 'Slow', 'FLTSLOW'), 504, 'UPSTREAM_TIMEOUT', 1),
  cob('malformed JSON body', person('Jay', 'Garbled', 'FLTJSON'), 502, 'UPSTREAM_ERROR', 1),
  cob('connection reset before any answer', person('Rita', 'Reset', 'RST000003'), 503, 'PAYER_UNAVAILABLE', 2, true),
  ai('SANDBOX:429', 503, 'AI_UNAVAILABLE', 2, true),
  ai('SANDBOX:500', 503, 'AI_UNAVAILABLE', 2, true),
  ai('SANDBOX:529', 503, 'AI_UNAVAILABLE', 2, true),
  ai('SANDBOX:TIMEOUT', 504, 'UPSTREAM_TIMEOUT', 1),
  ai('SANDBOX:BADJSON', 502, 'UPSTREAM_ERROR', 1),
  ai('SANDBOX:REFUSAL', 422, 'LETTER_NOT_GENERATED', 1),
  ai('SANDBOX:403', 500, 'CONFIGURATION_ERROR', 1),
];

interface Outcome {
  status: number;
  body: any;
  retryAfter: string | null;
  requestId: string | null;
}

const proxyOf = (c: Case): FaultProxy => (c.route === 'letter' ? aiProxy : stediProxy);

let clearinghouse: ClearinghouseSandbox;
let messages: MessagesSandbox;
let stediProxy: FaultProxy;
let aiProxy: FaultProxy;
let api: LocalApi;
let clock: StandingClock;
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  clock = standingClock();
  clearinghouse = await startClearinghouseSandbox({ apiKey: STEDI_KEY, slowMs: SLOW_MS });
  messages = await startMessagesSandbox();
  stediProxy = await startFaultProxy(clearinghouse.url, { RST000001: 'reset', RST000003: 'reset', RST000002: 'reset-mid-body', SLOWBODY1: 'slow-body' });
  aiProxy = await startFaultProxy(messages.url);
  process.env.STEDI_BASE_URL = stediProxy.url;
  process.env.STEDI_API_KEY = STEDI_KEY;
  process.env.ANTHROPIC_BASE_URL = aiProxy.url;
  process.env.ANTHROPIC_API_KEY = 'sandbox-key';
  process.env.UPSTREAM_BUDGET_MS = String(BUDGET_MS);
  // The letter's own budget (120 s in production, docs/letter.md#time) is set the same way.
  process.env.LETTER_BUDGET_MS = String(BUDGET_MS);
  // The gateway's 29 s cut and the server's request timeouts are not under test here: a loaded machine
  // must not reach them before the budget does.
  const long = 10 * 60_000;
  api = await startLocalApi({ integrationTimeoutMs: long, timeouts: { headersTimeoutMs: long, requestTimeoutMs: long } });

  const run = async (c: Case): Promise<void> => {
    const response = await fetch(`${api.url}${PATHS[c.route]}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(c.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // left as text: the assertion on `message` below reports it
    }
    outcomes.set(c.name, {
      status: response.status,
      body,
      retryAfter: response.headers.get('retry-after'),
      requestId: response.headers.get('x-request-id'),
    });
  };
  const endedByBudget = (c: Case): boolean => c.code === 'UPSTREAM_TIMEOUT';
  const cut = Promise.all(CASES.filter(endedByBudget).map(run));
  // While the clock stands still no budget is spent: these end by their upstreams' answers alone.
  await Promise.all(CASES.filter((c) => !endedByBudget(c)).map(run));
  // Each budget case's attempt is in flight (its request reached the proxy, its deadline watches the
  // clock): moving the clock past the budget is what ends it.
  await Promise.all(CASES.filter(endedByBudget).map((c) => proxyOf(c).arrived(c.tag, UPSTREAM_PATH[c.route])));
  clock.advance(BUDGET_MS + 1);
  await cut;
  // Every upstream request has closed, so each hang-up is recorded before the cases are checked.
  await Promise.all([stediProxy.settled(), aiProxy.settled()]);
}, 90_000);

afterAll(async () => {
  clock?.restore();
  await api?.close();
  await stediProxy?.close();
  await aiProxy?.close();
  await clearinghouse?.close();
  await messages?.close();
});

describe('fault injection through the local API', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const outcome = outcomes.get(c.name)!;
    expect({ status: outcome.status, code: outcome.body?.code }).toEqual({ status: c.status, code: c.code });
    expect(typeof outcome.body?.message).toBe('string');
    expect(outcome.requestId).toBeTruthy();
    if (c.status !== 200) expect(outcome.body.requestId).toBe(outcome.requestId);
    if (c.retryAfter) expect(Number(outcome.retryAfter)).toBeGreaterThan(0);
    // docs/api.md#upstreams: one attempt plus at most one retry, and only for retryable failures.
    const proxy = proxyOf(c);
    expect(proxy.count(c.tag, UPSTREAM_PATH[c.route])).toBe(c.attempts);
    // The budget, moved by the test: on a timeout the service hung up on an upstream that had not
    // answered (it never would have) or was still sending; otherwise it waited for every answer.
    expect(proxy.hungUp(c.tag, UPSTREAM_PATH[c.route])).toBe(c.status === 504 ? c.attempts : 0);
  });

  it('never echoes the upstream key or the patient in an error body', () => {
    for (const c of CASES) {
      const text = JSON.stringify(outcomes.get(c.name)!.body);
      expect(text).not.toContain(STEDI_KEY);
      if (c.route !== 'letter' && c.status !== 200) expect(text).not.toContain(String(c.body.patientMemberId));
    }
  });

  it('counted every attempt at the sandboxes too (proxy and sandbox agree)', () => {
    const viaProxy = CASES.filter((c) => c.route === 'eligibility' && !c.tag.includes('RST') && !c.tag.includes('SLOWBODY')).reduce(
      (n, c) => n + c.attempts,
      0,
    );
    expect(clearinghouse.stats.rawX12Calls).toBe(viaProxy);
  });
});
