import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DocExample, type DocRequest, differences, docJson, EXAMPLE_FILES, examplesOf, VARYING_KEYS } from '../support/doc-examples.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { ROOT, readRepoFile } from '../support/repo-docs.js';

/**
 * Every request/answer example of README.md and docs/*.md runs against the local server (sandbox upstreams,
 * the dev token) and shows today's answer: status, error code, headers and body, times and made-up ids
 * aside (docs/testing.md#docs-examples).
 */

const files = EXAMPLE_FILES((dir) => readdirSync(`${ROOT}${dir}`));
const found = files.map((file) => ({ file, ...examplesOf(file) }));
const examples = found.flatMap((f) => f.examples);

/** The examples the test cannot run, each with its reason: a new one is added here on purpose, never silently. */
const NOT_RUN = [
  'README.md letter-from-notes: sends your own procedure-notes.pdf through $(base64 …)',
  'README.md deploy-first-call: needs a deployed stack and its outputs',
  "docs/api.md printable-summary: the answer is a PDF written to a file; test/eligibility/printout.test.ts checks the same request's page",
  'docs/deployment.md deploy-first-call: needs a deployed stack and its outputs',
  'docs/finding-coverage.md card-medicare: sends a sample card image through $(base64 …); test/card/route.test.ts reads every sample card',
  'docs/letter.md appeal-offline: builds its body from the sample PDFs with node; test/letter/criteria.test.ts sends the same documents',
];

interface Real {
  status: number;
  headers: Headers;
  text: string;
}

let api: LocalApi;
const answers = new Map<DocExample, Promise<Real[]>>();

beforeAll(async () => {
  api = await startLocalApi();
  const runnable = examples.filter((e) => !e.notRun && e.problems.length === 0);
  const runAll = async (example: DocExample) => {
    const reals: Real[] = [];
    for (const request of example.requests) reals.push(await send(request));
    return reals;
  };
  // Examples that start the server as `npm start` does are independent of each other: all at once, the
  // requests of one example in order. Those that start it with variables (`NAME=value npm start`) run
  // after them, one at a time, with those variables set (the server reads them on every request).
  const plain = runnable.filter((e) => Object.keys(e.serverEnv).length === 0);
  for (const example of plain) answers.set(example, runAll(example));
  let previous: Promise<unknown> = Promise.allSettled(answers.values());
  for (const example of runnable.filter((e) => !plain.includes(e))) {
    const pending = previous.then(() => withEnvironment(example.serverEnv, () => runAll(example)));
    previous = pending.catch(() => undefined);
    answers.set(example, pending);
  }
  for (const pending of answers.values()) pending.catch(() => undefined);
}, 60_000);

afterAll(() => api?.close());

async function withEnvironment<T>(variables: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  try {
    return await run();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function send(request: DocRequest): Promise<Real> {
  const response = await fetch(`${api.url}${request.url}`, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('the examples in README.md and docs/*.md', () => {
  it('use the dev token the docs name', () => {
    expect(api.token).toBe('local-dev-token');
  });

  it('are all marked: every fenced block with a curl command is an example, run or not run with a reason', () => {
    expect(found.flatMap((f) => f.unmarked)).toEqual([]);
    expect(examples.filter((e) => e.notRun).map((e) => `${e.file} ${e.name}: ${e.notRun}`)).toEqual(NOT_RUN);
  });

  it('have names unique within their file', () => {
    const names = examples.map((e) => `${e.file} ${e.name}`);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  const run = examples.filter((e) => !e.notRun);
  it.each(run.map((e) => [`${e.file} ${e.name}`, e] as const))('%s answers as shown', async (_, example) => {
    expect(example.problems).toEqual([]);
    expect(example.requests.length).toBeGreaterThan(0);
    const reals = await answers.get(example)!;
    example.requests.forEach((request, i) => {
      const real = reals[i]!;
      const shown = request.answer;
      const where = `${request.method} ${request.url} (${shown.at})`;
      if (shown.status !== undefined) expect([where, real.status]).toEqual([where, shown.status]);
      else expect([where, real.status >= 200 && real.status < 300 ? 'success' : `${real.status} ${real.text.slice(0, 300)}`]).toEqual([where, 'success']);
      const body = real.text && /json/.test(real.headers.get('content-type') ?? '') ? JSON.parse(real.text) : real.text;
      if (shown.code !== undefined) expect([where, body?.code]).toEqual([where, shown.code]);
      for (const [name, value] of Object.entries(shown.headers)) expect([where, name, real.headers.get(name)]).toEqual([where, name, value]);
      const wrong = shown.body === undefined ? [] : differences(shown.body, body, '$', shown.items);
      // On a difference, today's answer follows, ready to paste (or: npx tsx test/docs/print-example.ts FILE NAME).
      expect([where, wrong, wrong.length > 0 ? docJson(body) : '']).toEqual([where, [], '']);
    });
  });
});

describe('the example reader', () => {
  const fence = '```';
  const doc = [
    '<!-- example: health -->',
    `${fence}bash`,
    'curl -s http://127.0.0.1:3000/api/health   # {"status":"ok"}',
    'curl -si -X PUT http://127.0.0.1:3000/api/eligibility/v1   # 405 METHOD_NOT_ALLOWED, Allow: POST',
    fence,
    '<!-- example: token -->',
    `${fence}sh`,
    'curl -s http://127.0.0.1:3000/api/payers -H "Authorization: Bearer $TOKEN"',
    fence,
    '<!-- example: posted -->',
    `${fence}sh`,
    'T=abc; curl -s http://127.0.0.1:3000/api/x -H "Authorization: Bearer $T" -d @body.json',
    fence,
    '<!-- file: body.json -->',
    `${fence}json`,
    '{"a": 1}',
    fence,
    'Showing 1 of its 2 items:',
    '<!-- answer: posted, status 201, 1 of 3 items -->',
    `${fence}json`,
    '{"items": [1]}',
    fence,
    `${fence}bash`,
    'curl -s http://127.0.0.1:3000/api/health',
    fence,
  ].join('\n');
  const { examples, unmarked } = examplesOf('doc.md', doc);
  const [health, token, posted] = examples;

  it('reads inline answers: a body, a status with its error code and headers', () => {
    expect(health!.requests.map((r) => [r.method, r.url, r.answer.status, r.answer.code, r.answer.body, r.answer.headers])).toEqual([
      ['GET', '/api/health', undefined, undefined, { status: 'ok' }, {}],
      ['PUT', '/api/eligibility/v1', 405, 'METHOD_NOT_ALLOWED', undefined, { allow: 'POST' }],
    ]);
  });

  it("reads curl's --json and a localhost URL", () => {
    const {
      examples: [json],
    } = examplesOf('json.md', ['<!-- example: j -->', `${fence}sh`, `curl -s --json '{"a":1}' http://localhost:3000/api/x`, fence].join('\n'));
    expect(json!.requests.map((r) => [r.method, r.url, r.body, r.headers])).toEqual([
      ['POST', '/api/x', '{"a":1}', { 'content-type': 'application/json', accept: 'application/json' }],
    ]);
  });

  it('refuses a variable nothing sets, and finds a curl block without a marker', () => {
    expect(token!.problems).toEqual(['uses $TOKEN, which nothing before it sets']);
    const loose = examplesOf(
      'loose.md',
      ['<!-- example: x -->', `${fence}sh`, 'curl http://127.0.0.1:3000/api/health', fence, 'It answers:', `${fence}json`, '{}', fence].join('\n'),
    );
    expect(loose.examples[0]!.problems).toEqual(['the json block at line 6 follows with text between: mark it <!-- answer: x --> if it is the answer']);
    expect(unmarked).toEqual(['doc.md:23: a curl block with no <!-- example: NAME --> before it (or NAME (not run: why))']);
  });

  it('sends a marked file, and takes a marked answer with its status and item count', () => {
    expect(posted!.problems).toEqual(['the text before the answer at line 20 does not say "1 of its 3 items"']);
    const [request] = posted!.requests;
    expect([request!.method, request!.headers.authorization, request!.body, request!.answer.status, request!.answer.items, request!.answer.body]).toEqual([
      'POST',
      'Bearer abc',
      '{"a": 1}',
      201,
      { shown: 1, total: 3 },
      { items: [1] },
    ]);
  });
});

describe('the comparison', () => {
  it('ignores the keys docs/testing.md lists, and no other', () => {
    const guide = readRepoFile('docs/testing.md');
    const listed = guide.slice(guide.indexOf('keys that change on every call'), guide.indexOf('what the doc elides'));
    expect([...listed.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual([...VARYING_KEYS].sort());
  });

  const real = { copay: '$25.00', checkedAt: '2026-11-27T10:00:00.000Z', list: [1, 2, 3] };

  it('ignores only the values of the varying keys, never their presence or type', () => {
    expect(differences({ ...real, checkedAt: '2025-01-01T00:00:00.000Z' }, real)).toEqual([]);
    expect(differences({ ...real, checkedAt: 5 }, real)).toEqual(['$.checkedAt: a string in the answer, a number here']);
    expect(differences({ ...real, copay: '$20.00' }, real)).toEqual(['$.copay: shows "$20.00", the answer has "$25.00"']);
  });

  it('refuses a key missing or extra, or an item missing, unless "…" elides them', () => {
    expect(differences({ copay: '$25.00', checkedAt: '' }, real)).toEqual(['$.list: in the answer, not shown ([1,2,3])']);
    expect(differences({ copay: '$25.00', '…': '…' }, real)).toEqual([]);
    expect(differences({ ...real, extra: 1 }, real)).toEqual(['$.extra: not in the answer']);
    expect(differences({ ...real, list: [1, 2] }, real)).toEqual(['$.list: shows 2 items, the answer has 3']);
    expect(differences({ ...real, list: [1, '…'] }, real)).toEqual([]);
    expect(differences({ ...real, list: [1, '…', 4] }, real)).toEqual(['$.list[2]: not in the answer']);
  });

  it('takes "N of M items" as N items of an M-item list, in order', () => {
    expect(differences({ ...real, list: [1, 3] }, real, '$', { shown: 2, total: 3 })).toEqual([]);
    expect(differences({ ...real, list: [3, 1] }, real, '$', { shown: 2, total: 3 })).not.toEqual([]);
    expect(differences({ ...real, list: [1, 3] }, real, '$', { shown: 2, total: 4 })).toEqual(['$.list: shows 2 items, the answer has 3']);
  });
});
