import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { FORMATS } from '../../lib/validation/formats.js';
import { DESCRIBED_KEYWORDS, validateBody } from '../../lib/validation/index.js';
import { SCHEMAS, type SchemaName } from '../../lib/validation/schemas.js';
import { MOCK_SET_1 } from '../support/events.js';

/**
 * Messages for people (docs/api.md#validation): walks every keyword every request schema uses,
 * breaks each field in every way the keywords can catch, and checks that what a caller reads is
 * our wording, never the validator's ("must be array", "must NOT have more than 60 characters").
 */

/** Keys that structure or annotate a schema rather than test a value. */
const STRUCTURAL = new Set(['$id', 'title', 'description', 'examples', 'properties', 'items', 'default', '$comment']);

function keywordsOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema) || typeof schema !== 'object' || schema === null) return into;
  for (const [key, value] of Object.entries(schema)) {
    if (!STRUCTURAL.has(key)) into.add(key);
    if (key === 'properties') for (const sub of Object.values(value as object)) keywordsOf(sub, into);
    else if (key === 'items' || key === 'additionalProperties') keywordsOf(value, into);
  }
  return into;
}

/** A validator with the production formats, to see which keyword each broken body trips. */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020, formats: string[]) => Ajv2020;
const raw = new Ajv2020({ allErrors: true, strict: true });
addFormats(raw, ['email']);
for (const [name, rule] of Object.entries(FORMATS)) if (name !== 'email') raw.addFormat(name, { type: 'string', validate: rule.validate });

const VALID: Record<SchemaName, Record<string, unknown>> = {
  eligibility: { ...MOCK_SET_1 },
  cob: { patientFirstName: 'Sofia', patientLastName: 'Rossi', dateOfCoverage: '03-01-2025', payerId: 'SANDBOX-PAYER-1', providerId: 'PROVIDER-SANDBOX-1' },
  letter: {
    file_content: 'JVBERi0xLjcK',
    patient_identifier: 'PT-1',
    patient_name: 'Maria Garcia',
    patient_age: '40',
    facility_name: 'Clinic',
    visit_cost: '$100',
    provider_email: 'dr@example.org',
    provider_phone: '+1 555 0100',
    provider_signature: '/s/ Lee',
    provider_name: 'Jordan Lee, MD',
  },
  fhir: { resourceType: 'Bundle', entry: [{}] },
  discovery: {
    patientFirstName: 'Dana',
    patientLastName: 'Quest',
    patientDOB: '04-12-1980',
    patientAddress: { street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
    dateOfService: '03-01-2025',
    providerId: 'PROVIDER-SANDBOX-1',
  },
  mbi: {
    patientFirstName: 'Walter',
    patientLastName: 'Medi',
    patientDOB: '05-05-1950',
    patientState: 'OH',
    dateOfCoverage: '03-01-2025',
    providerId: 'PROVIDER-SANDBOX-1',
  },
  card: { front: 'iVBORw0KGgo=', check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' } },
};

/** Values that break strings, lists, booleans and codes in every way the keywords can tell apart. */
const BAD_VALUES: unknown[] = [
  42,
  1.5,
  true,
  null,
  [],
  {},
  '',
  ' ',
  'x'.repeat(5000),
  'a\u0000b',
  'tab\there',
  '*^:~',
  '02-30-2025',
  '13-01-2025',
  '01-01-2999',
  'not-an-email@',
  '12-345',
  'zzz',
  ['30', '30'],
  Array.from({ length: 120 }, (_, i) => String(i + 1)),
  ['ZZZ'],
  [42],
  ['30', 'A5', '99213', 'D0120', '9921'],
  ['99213', '99213'],
  // Estimate lines whose amount breaks its bounds.
  { lines: [{ amount: 0 }] },
  { lines: [{ amount: 2_000_000 }] },
  // Requested services whose units break their bounds.
  [{ code: '99213', units: 0 }],
  [{ code: '99213', units: 100_000 }],
];

/** Every broken body: each field (and each field of an object field) set to each bad value, each required field dropped, an unknown field, a lone dependent field. */
function brokenBodies(name: SchemaName): Record<string, unknown>[] {
  const schema = SCHEMAS[name] as { properties: Record<string, unknown>; required: readonly string[] };
  const valid = VALID[name];
  const bodies: Record<string, unknown>[] = [];
  for (const field of Object.keys(schema.properties)) for (const value of BAD_VALUES) bodies.push({ ...valid, [field]: value });
  for (const field of schema.required) {
    const { [field]: _dropped, ...rest } = valid;
    bodies.push(rest);
  }
  // An object field of the valid body (the card's `check`) is walked the same way, one level down.
  for (const [field, nested] of Object.entries(valid)) {
    const properties = (schema.properties[field] as { properties?: Record<string, unknown> }).properties;
    if (!properties || typeof nested !== 'object' || nested === null || Array.isArray(nested)) continue;
    for (const sub of Object.keys(properties)) for (const value of BAD_VALUES) bodies.push({ ...valid, [field]: { ...nested, [sub]: value } });
  }
  bodies.push({ ...valid, runCOBCheck: true }, { ...valid, dependentFirstName: 'Emma' });
  return bodies;
}

/** The validator's own phrasings (ajv's English messages). */
const VALIDATOR_WORDING = [
  /must NOT/,
  /must have required property/,
  /must match (format|pattern)/,
  /must be equal to/,
  /must be (array|object|string|boolean|integer|number|null)\b/,
  /must be a (array|object|string|boolean|integer|number|null)\b/,
  /must pass/,
  /must have propert/,
  /must be [<>]=?/,
  /must contain (at least|at most|a valid)/,
  /property name/,
  /\bshould\b/,
];

describe('validation messages', () => {
  for (const name of Object.keys(SCHEMAS) as SchemaName[]) {
    it(`${name}: every keyword the schema uses has a message of ours, and the walk trips every one`, () => {
      const used = keywordsOf(SCHEMAS[name]);
      expect([...used].filter((keyword) => !DESCRIBED_KEYWORDS.includes(keyword))).toEqual([]);
      const validate = raw.compile({ ...SCHEMAS[name], $id: `raw-${name}` });
      const tripped = new Set<string>();
      for (const body of brokenBodies(name)) {
        validate(body);
        for (const error of validate.errors ?? []) tripped.add(error.keyword);
      }
      // Keywords that are answers to other keywords (the schema's type is always object) need no trip, nor
      // `additionalProperties: true`, which refuses nothing (the FHIR Bundle's open shape says so for OpenAPI).
      const refusesNothing = (keyword: string) => keyword === 'additionalProperties' && !JSON.stringify(SCHEMAS[name]).includes('"additionalProperties":false');
      expect([...used].filter((keyword) => !tripped.has(keyword) && keyword !== 'type' && !refusesNothing(keyword))).toEqual([]);
    });

    it(`${name}: no broken body gets the validator's wording, and every message reads "is …" or "must …"`, () => {
      let checked = 0;
      for (const body of brokenBodies(name)) {
        const result = validateBody(name, body);
        if (result.ok) continue;
        for (const { field, message } of result.error.errors ?? []) {
          checked += 1;
          expect({ field, message, raw: VALIDATOR_WORDING.filter((re) => re.test(message)).map(String) }).toEqual({ field, message, raw: [] });
          expect(message).toMatch(/^(is|must) /);
          expect(field).not.toBe('');
        }
      }
      expect(checked).toBeGreaterThan(100);
    });
  }

  it('says what a list is a list of, and what is wrong with a date, as the docs promise', () => {
    const cob = VALID.cob;
    const answer = (body: unknown) => {
      const result = validateBody('cob', body);
      return result.ok ? [] : result.error.errors;
    };
    expect(answer({ ...cob, serviceTypeCodes: '30' })).toEqual([{ field: 'serviceTypeCodes', message: 'must be a list of service type codes' }]);
    expect(answer({ ...cob, dateOfCoverage: '02-30-2025' })).toEqual([
      { field: 'dateOfCoverage', message: 'must be a real calendar date in the form MM-DD-YYYY' },
    ]);
    expect(answer({ ...cob, mockRequest: 'true' })).toEqual([{ field: 'mockRequest', message: 'must be true or false (without quotes)' }]);
    expect(answer({ ...cob, serviceTypeCodes: ['30', '30'] })).toEqual([
      { field: 'serviceTypeCodes', message: 'must not list the same service type code twice (items 0 and 1 are equal)' },
    ]);
    expect(answer({ ...cob, serviceTypeCodes: [] })).toEqual([{ field: 'serviceTypeCodes', message: 'must list at least 1 service type code' }]);
  });
});
