import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_LISTED_ERRORS } from '../../lib/errors/index.js';
import { rng, seedFromEnv } from '../fuzz/generate.js';
import { MOCK_SET_1 } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';
import { measureCall } from './measure.js';

/**
 * Hostile request bodies over real HTTP against the local server (docs/security.md): bytes that
 * are not UTF-8, repeated keys, 100k-key bodies, padded ids, delimiter-only names, control
 * characters. Each gets its documented status and body shape (docs/api.md#errors), in bounded time and memory.
 * Seeded (FUZZ_SEED reproduces a run).
 */

const SEED = seedFromEnv();
const ELIGIBILITY = '/api/eligibility/v1';
const COB = '/api/eligibility/cob/v1';
const cobBody = {
  patientFirstName: 'Ana',
  patientLastName: 'Ruiz',
  dateOfCoverage: '06-01-2025',
  payerId: 'PAYER001',
  providerId: 'PROVIDER001',
  mockRequest: true,
};

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
}, 30_000);
afterAll(async () => {
  await api?.close();
});

/** POSTs raw bytes (fetch would re-encode a string as UTF-8). */
async function postBytes(path: string, bytes: Buffer) {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${api.token}` },
    body: bytes,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

/** Byte sequences that are not UTF-8. */
const INVALID_UTF8: Array<[string, number[]]> = [
  ['overlong "/"', [0xc0, 0xaf]],
  ['overlong NUL', [0xc0, 0x80]],
  ['overlong 3-byte "/"', [0xe0, 0x80, 0xaf]],
  ['overlong 4-byte', [0xf0, 0x80, 0x80, 0xaf]],
  ['UTF-8-encoded high surrogate', [0xed, 0xa0, 0x80]],
  ['UTF-8-encoded low surrogate', [0xed, 0xbf, 0xbf]],
  ['lone continuation byte', [0x80]],
  ['truncated 3-byte sequence', [0xe2, 0x82]],
  ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['0xFF byte', [0xff]],
];

describe(`hostile bodies over HTTP (seed ${SEED})`, () => {
  it.each(INVALID_UTF8)('%s inside a string → 400 INVALID_JSON "not valid UTF-8"', async (_label, bytes) => {
    const r = rng(SEED ^ bytes.length);
    const json = JSON.stringify(MOCK_SET_1);
    // Somewhere inside the first name, as a browser form or a broken proxy would mangle it.
    const at = json.indexOf('"John"') + 1 + r.int(4);
    const raw = Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from(bytes), Buffer.from(json.slice(at))]);
    const reply = await postBytes(ELIGIBILITY, raw);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: 'The body is not valid UTF-8', code: 'INVALID_JSON', requestId: reply.headers.get('x-request-id') });
  });

  it.each([
    ['mockRequest true then false', '{"mockRequest": true, "mockRequest": false}'],
    ['the same key spelled with an escape', '{"payerId": "A", "payer\\u0049d": "B"}'],
  ])('a key repeated in one object (%s) → 400 INVALID_JSON naming it', async (_label, prefix) => {
    const rest = JSON.stringify({ ...MOCK_SET_1, mockRequest: undefined, payerId: undefined }).slice(1);
    const reply = await api.call(ELIGIBILITY, undefined, { rawBody: `${prefix.slice(0, -1)},${rest}` });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_JSON', message: expect.stringMatching(/repeats the key "(mockRequest|payerId)"/) });
  });

  it('a body with 100,000 unknown keys → 400 with 50 errors, errorsTruncated, a small answer', async () => {
    const r = rng(SEED);
    // The text of JSON.stringify({ ...MOCK_SET_1, ...keys }), written out directly: spreading 100,000 keys
    // into one object and serialising it cost the test more than the server's refusal (the keys are
    // [a-z0-9_] only, so nothing needs escaping).
    const keys = Array.from({ length: 100_000 }, (_, i) => `"k${i}_${r.int(1e9).toString(36)}":${i}`);
    const raw = `${JSON.stringify(MOCK_SET_1).slice(0, -1)},${keys.join(',')}}`;
    const { result: reply, growthMiB } = await measureCall(() => api.call(ELIGIBILITY, undefined, { rawBody: raw }));
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(reply.body.errorsTruncated).toBe(true);
    // Bounded work shows in the answer: the listing stops at 50 (the parse's time is bench/hostile.ts's).
    expect(JSON.stringify(reply.body).length).toBeLessThan(10_000);
    expect(growthMiB).toBeLessThan(400);
  }, 30_000);

  it('a 6 MB list of 2.9 million items → 400 on its length, the items past the 11th never listed', async () => {
    const raw = JSON.stringify({ ...MOCK_SET_1, serviceTypeCodes: 'x' }).replace('"x"', `[${'1,'.repeat(2_899_999)}1]`);
    expect(raw.length).toBeGreaterThan(5_800_000);
    const reply = await api.call(ELIGIBILITY, undefined, { rawBody: raw });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_REQUEST');
    expect(reply.body.errors[0]).toEqual({ field: 'serviceTypeCodes', message: 'must list at most 10 service type codes' });
    // The length and the 11 items a length check keeps, never a list of the 2.9 million.
    expect(reply.body.errors.length).toBeLessThanOrEqual(12);
    expect(reply.body.errorsTruncated).toBeUndefined();
    for (const { field } of reply.body.errors.slice(1)) expect(Number(/\[(\d+)\]/.exec(field)?.[1])).toBeLessThan(11);
  }, 60_000);

  it("the letter's optional fields and invisible names are refused over HTTP too", async () => {
    const letter = await api.call('/api/generate-letter', {
      file_content: 'JVBERi0xLjQK',
      patient_identifier: 'PT-1',
      patient_name: 'Ana Ruiz',
      patient_age: '42',
      facility_name: 'Clinic',
      visit_cost: '$100',
      provider_email: 'dr@clinic.example',
      provider_phone: '555-0100',
      provider_signature: '/s/ Lee',
      provider_name: 'Dr. Lee',
      member_id: `${' '.repeat(100_000)}M\u0000`,
      payer_name: 'Aetna\u001b[0m',
      provider_npi: ' '.repeat(100_000),
    });
    expect(letter.status).toBe(400);
    expect(letter.body.errors.map((e: { field: string }) => e.field)).toEqual(['payer_name', 'member_id', 'provider_npi']);
    const eligibility = await api.call(ELIGIBILITY, { ...MOCK_SET_1, mockRequest: false, patientFirstName: '\u200B', patientLastName: 'Doe\u202E' });
    expect(eligibility.status).toBe(400);
    expect(eligibility.body.errors.map((e: { field: string }) => e.field)).toEqual(['patientFirstName', 'patientLastName']);
  });

  it('a 3,000-space providerId (and a space-padded one) → 400 INVALID_REQUEST naming providerId, never a 500', async () => {
    for (const providerId of [' '.repeat(3000), `${' '.repeat(3000)}PROVIDER001`, `PROVIDER001${' '.repeat(70)}`]) {
      const reply = await api.call(ELIGIBILITY, { ...MOCK_SET_1, providerId });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual([{ field: 'providerId', message: 'must be at most 80 characters long (spaces count)' }]);
    }
  });

  it('multi-megabyte string values → 400 naming the fields on their length alone', async () => {
    const huge = `${' '.repeat(2_500_000)}x`;
    const reply = await api.call(ELIGIBILITY, { ...MOCK_SET_1, patientLastName: huge, payerId: 'y'.repeat(2_500_000) });
    expect(reply.status).toBe(400);
    // One length error per field, nothing else (how long refusing them takes is the bench's to measure).
    expect(reply.body.errors).toEqual([
      { field: 'patientLastName', message: 'must be at most 60 characters long (spaces count)' },
      { field: 'payerId', message: 'must be at most 80 characters long (spaces count)' },
    ]);
  }, 30_000);

  it.each(['***', '~~~', '^:^', ' * ', '*~^:'])('a last name made only of X12 delimiters (%j) → 400 naming the field, on both routes', async (name) => {
    const eligibility = await api.call(ELIGIBILITY, { ...MOCK_SET_1, mockRequest: false, patientLastName: name });
    expect(eligibility.status).toBe(400);
    expect(eligibility.body.errors).toEqual([{ field: 'patientLastName', message: expect.stringMatching(/letter or digit/) }]);
    const cob = await api.call(COB, { ...cobBody, mockRequest: false, patientLastName: name, patientFirstName: name });
    expect(cob.status).toBe(400);
    expect(cob.body.errors.map((e: { field: string }) => e.field)).toEqual(['patientFirstName', 'patientLastName']);
  });

  it('control characters in any string → 400 naming each field', async () => {
    const r = rng(SEED + 1);
    const pick = () => String.fromCharCode(r.pick([0x00, 0x01, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f]));
    const reply = await api.call(ELIGIBILITY, { ...MOCK_SET_1, patientFirstName: `Jo${pick()}hn`, patientMemberId: `M${pick()}1`, payerId: `P${pick()}` });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(['patientFirstName', 'patientMemberId', 'payerId']);
  });

  it('__proto__ and constructor.prototype are named as unknown fields and pollute nothing', async () => {
    const proto = await api.call(ELIGIBILITY, undefined, { rawBody: JSON.stringify(MOCK_SET_1).replace('{', '{"__proto__": {"polluted": 1},') });
    expect(proto.body.errors).toEqual([{ field: '__proto__', message: 'is not an allowed field' }]);
    const ctor = await api.call(ELIGIBILITY, undefined, {
      rawBody: JSON.stringify(MOCK_SET_1).replace('{', '{"constructor": {"prototype": {"polluted": 1}},'),
    });
    expect(ctor.body.errors).toEqual([{ field: 'constructor', message: 'is not an allowed field' }]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("every answer carries Cache-Control: no-store, the server's own 401/404/413 included", async () => {
    const answers = [
      await api.call(ELIGIBILITY, MOCK_SET_1),
      await api.call(ELIGIBILITY, MOCK_SET_1, { token: null }),
      await api.call(ELIGIBILITY, MOCK_SET_1, { token: 'unknown-token' }),
      await api.call('/api/nowhere', {}),
      await api.call(ELIGIBILITY, undefined, { rawBody: 'x'.repeat(7 * 1024 * 1024) }),
      await api.call(ELIGIBILITY, undefined, { rawBody: '{' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 403, 404, 413, 400]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
  });
});
