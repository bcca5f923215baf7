/**
 * Seeded generators for the fuzz tests: a small PRNG (mulberry32) so every run is reproducible from
 * its seed, hostile values (wrong types, huge and odd strings, deep nesting, invalid dates, bad
 * base64) and mutations of valid request bodies and raw JSON text.
 */

export const DEFAULT_SEED = 0x5eed2026;

/** FUZZ_SEED overrides the fixed default seed (decimal or 0x hex). */
export function seedFromEnv(): number {
  const raw = process.env.FUZZ_SEED?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) ? n >>> 0 : DEFAULT_SEED;
}

export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

const UNICODE = [
  'Zoë Ångström',
  'José Núñez-O’Brien',
  '李小龍',
  'محمد',
  'שָׁלוֹם',
  '👩‍⚕️🏥',
  'e\u0301\u0301\u0301',
  '\u202Egnp.exe',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\uFEFF',
  '\u2028\u2029',
  'Ｆｕｌｌｗｉｄｔｈ',
  'a~b*c^d:e',
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the hostile input under test, not a template
  '${process.env}',
  '__proto__',
  '../../etc/passwd',
];

const DATES = [
  '02-30-2025',
  '13-01-2025',
  '00-00-0000',
  '2025-01-01',
  '1-1-2025',
  '01-01-25',
  '01/01/2025',
  '02-29-2023',
  '02-29-2024',
  '12-31-9999',
  '01-01-0001',
  '01-01-2999',
  '99-99-9999',
  ' 01-01-2025',
  '01-01-2025\n',
  '０１-０１-２０２５',
];
const BASE64 = [
  '',
  '%%%%',
  'JVBERi0',
  'JVBERi0xLjcK',
  'aGVsbG8gd29ybGQ=',
  'data:application/pdf;base64,',
  'data:application/pdf;base64,!!!',
  '====',
  'A',
  'QUJD\nREVG',
  'JVBERi0xLjcKJeLjz9MKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcgo8PC9Sb290IDEgMCBSPj4KJSVFT0Y=',
];

/** Nested arrays/objects `depth` levels deep. */
export function deep(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** The JSON text of `deep(depth, kind)`, built without recursion (JSON.stringify would overflow). */
export function deepText(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}"x"${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
}

export function hostileValue(r: Rng): unknown {
  switch (r.int(16)) {
    case 0:
      return r.pick([0, -1, 1e308, -0, 3.14, Number.MAX_SAFE_INTEGER + 2, 123456789]);
    case 1:
      return r.chance(0.5);
    case 2:
      return null;
    case 3:
      return r.pick([[], ['30'], [1, 2], [null], [{}]]);
    case 4:
      return r.pick([{}, { a: 1 }, { __proto__: { polluted: true } }]);
    case 5:
      return 'x'.repeat(r.pick([61, 81, 1000, 70_000, 300_000]));
    case 6:
      return r.pick(UNICODE);
    case 7:
      return r.pick(['', ' ', '\t\n', '   John   ']);
    case 8:
      return deep(r.pick([10, 200, 2_000]), r.chance(0.5) ? 'array' : 'object');
    case 9:
    case 10:
      return r.pick(DATES);
    case 11:
      return r.pick(BASE64);
    case 12:
      return r.pick(['true', 'false', 'null', '0', 'NaN', 'Infinity']);
    case 13:
      return r.pick(['30', '1', 'ZZ', '99', '30,1', 'abc@', 'a@b', 'a@b.c', 'not-an-email', 'pdf', 'text', 'PDF', 'html']);
    case 14:
      return r.pick(UNICODE).repeat(r.int(50) + 1);
    default:
      return String.fromCharCode(...Array.from({ length: r.int(40) + 1 }, () => r.int(0x10000)));
  }
}

const EXTRA_KEYS = ['runCOBCheck', 'extra', '', ' ', 'constructor', 'prototype', '__proto__', 'toString', 'mockrequest', 'patientSsn', '💥', 'a'.repeat(500)];

/** 1–3 mutations of a valid body: drop, add, retype or replace fields. */
export function mutateBody(r: Rng, valid: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...valid };
  const keys = Object.keys(valid);
  const rounds = 1 + r.int(3);
  for (let i = 0; i < rounds; i++) {
    const key = r.pick(keys);
    switch (r.int(5)) {
      case 0:
        delete body[key];
        break;
      case 1: {
        const extra = r.pick(EXTRA_KEYS);
        // A literal __proto__ key only survives through JSON text, which is how attackers send it.
        Object.defineProperty(body, extra, { value: hostileValue(r), enumerable: true, configurable: true, writable: true });
        break;
      }
      default:
        body[key] = hostileValue(r);
    }
  }
  return body;
}

/** A whole body that is not the expected object at all, as JSON text. */
export function hostileDocument(r: Rng): string {
  return r.pick([
    () => JSON.stringify(hostileValue(r)),
    () => deepText(r.pick([100, 5_000, 50_000]), r.chance(0.5) ? 'array' : 'object'),
    () => '{"__proto__":{"isAdmin":true},"patientFirstName":"John"}',
    () => '{"constructor":{"prototype":{"x":1}}}',
    () => '',
    () => ' ',
    () => 'null',
    () => '[]',
    () => '{"a":1,"a":2}',
    () => '\uFEFF{}',
    () => '{'.repeat(r.int(5000) + 1),
    () => `{"patientFirstName":"${'\\u0000'.repeat(r.int(100) + 1)}"}`,
    () => String.fromCharCode(...Array.from({ length: r.int(200) + 1 }, () => r.int(0x10000))),
  ])();
}

/** Corrupts JSON text: truncation, a flipped character, an inserted character, or doubling. */
export function mutateText(r: Rng, text: string): string {
  const at = r.int(Math.max(1, text.length));
  switch (r.int(4)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return `${text.slice(0, at)}${String.fromCharCode(r.int(0x80))}${text.slice(at + 1)}`;
    case 2:
      return `${text.slice(0, at)}${r.pick(['"', '\\', '{', '}', ',', ':', '\u0000', '\ud800', ']'])}${text.slice(at)}`;
    default:
      return text + text;
  }
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  '',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json;charset=latin1',
];
