import { describe, expect, it } from '@jest/globals';
import { validateBody } from '../../lib/validation/index.js';
import { MOCK_SET_1 } from '../support/events.js';

const { mockRequest: _mock, ...eligibility } = MOCK_SET_1;
const cob = { patientFirstName: 'Ana', patientLastName: 'Ruiz', dateOfCoverage: '06-01-2025', payerId: 'AETNA', providerId: 'PROV-1' };
const letter = {
  file_content: 'JVBERi0xLjQK',
  patient_identifier: 'PT-1',
  patient_name: 'Ana Ruiz',
  patient_age: '42',
  facility_name: 'Clinic',
  visit_cost: '$1,200.00',
  provider_email: 'dr@clinic.example',
  provider_phone: '555-0100',
  provider_signature: '/s/ Dr. Lee',
  provider_name: 'Dr. Lee, MD',
};

function problems(name: 'eligibility' | 'cob' | 'letter', body: unknown) {
  const result = validateBody(name, body);
  if (result.ok) return [];
  expect(result.error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  return result.error.errors ?? [];
}

const fields = (name: 'eligibility' | 'cob' | 'letter', body: unknown) =>
  problems(name, body)
    .map((e) => e.field)
    .sort();

describe('eligibility body', () => {
  it('takes serviceTypeCodes and procedureCodes: 1–10 distinct valid codes, each problem named in plain words', () => {
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: ['30', '98', 'AL'], procedureCodes: ['99213', 'D0120', 'J1100'] })).toEqual([]);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: ['30', 'ZZ9'] })).toEqual([
      { field: 'serviceTypeCodes[1]', message: 'must be an X12 005010 service type code' },
    ]);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: ['30', '98', '30'] })).toEqual([
      { field: 'serviceTypeCodes', message: 'must not list the same service type code twice (items 0 and 2 are equal)' },
    ]);
    const eleven = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'];
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: eleven })).toEqual([
      { field: 'serviceTypeCodes', message: 'must list at most 10 service type codes' },
    ]);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: [] })).toEqual([
      { field: 'serviceTypeCodes', message: 'must list at least 1 service type code' },
    ]);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: '30' })).toEqual([
      { field: 'serviceTypeCodes', message: 'must be a list of service type codes' },
    ]);
    const badProcedure = { field: 'procedureCodes[0]', message: 'must be a procedure code of 5 letters or digits (CPT, HCPCS or CDT, such as 99213 or D0120)' };
    for (const code of ['9921', '992133', '99 13', 'd01é0', '99.13'])
      expect(problems('eligibility', { ...eligibility, procedureCodes: [code] })).toEqual([badProcedure]);
    expect(problems('eligibility', { ...eligibility, procedureCodes: ['99213', '99213'] })).toEqual([
      { field: 'procedureCodes', message: 'must not list the same procedure code twice (items 0 and 1 are equal)' },
    ]);
    expect(problems('eligibility', { ...eligibility, procedureCodes: Array.from({ length: 11 }, (_, i) => String(99200 + i)) })).toEqual([
      { field: 'procedureCodes', message: 'must list at most 10 procedure codes' },
    ]);
  });

  it('upper-cases service type and procedure codes before checking them, and answers the upper-cased body', () => {
    const sent = { ...eligibility, serviceTypeCodes: ['mh', 'Al', '30'], procedureCodes: ['d0120', 'j1100'] };
    const result = validateBody('eligibility', sent);
    expect(result).toEqual({ ok: true, value: { ...eligibility, serviceTypeCodes: ['MH', 'AL', '30'], procedureCodes: ['D0120', 'J1100'] } });
    // The caller's object is left as it was.
    expect(sent.serviceTypeCodes).toEqual(['mh', 'Al', '30']);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: ['al', 'AL'] })).toEqual([
      { field: 'serviceTypeCodes', message: 'must not list the same service type code twice (items 0 and 1 are equal)' },
    ]);
    expect(problems('eligibility', { ...eligibility, serviceTypeCodes: ['zz9'] })).toEqual([
      { field: 'serviceTypeCodes[0]', message: 'must be an X12 005010 service type code' },
    ]);
    const cobResult = validateBody('cob', { ...cob, serviceTypeCodes: ['al'] });
    expect(cobResult.ok && cobResult.value.serviceTypeCodes).toEqual(['AL']);
  });

  it('accepts a valid body, with and without the optional booleans', () => {
    expect(problems('eligibility', eligibility)).toEqual([]);
    expect(problems('eligibility', { ...eligibility, mockRequest: false, runCobCheck: true })).toEqual([]);
  });

  it('reports every missing field at once', () => {
    expect(fields('eligibility', {})).toEqual([
      'dateOfCoverage',
      'patientDOB',
      'patientFirstName',
      'patientLastName',
      'patientMemberId',
      'payerId',
      'providerId',
    ]);
    expect(problems('eligibility', {}).every((e) => e.message === 'is required')).toBe(true);
  });

  it('rejects unknown fields such as the typo runCOBCheck', () => {
    expect(problems('eligibility', { ...eligibility, runCOBCheck: true })).toEqual([{ field: 'runCOBCheck', message: 'is not an allowed field' }]);
  });

  it('requires booleans to be booleans', () => {
    expect(fields('eligibility', { ...eligibility, mockRequest: 'true', runCobCheck: 1 })).toEqual(['mockRequest', 'runCobCheck']);
  });

  it.each([
    ['02-30-2025', 'not a calendar date'],
    ['2025-01-01', 'ISO instead of MM-DD-YYYY'],
    ['1-1-2025', 'unpadded'],
    ['13-01-2025', 'month 13'],
    ['02-29-2023', 'not a leap year'],
  ])('rejects dateOfCoverage %s (%s)', (value) => {
    expect(fields('eligibility', { ...eligibility, dateOfCoverage: value })).toEqual(['dateOfCoverage']);
  });

  it('accepts 02-29 in a leap year', () => {
    expect(problems('eligibility', { ...eligibility, dateOfCoverage: '02-29-2024' })).toEqual([]);
  });

  it('rejects a date of birth in the future', () => {
    const next = new Date();
    next.setUTCFullYear(next.getUTCFullYear() + 1);
    const future = `${String(next.getUTCMonth() + 1).padStart(2, '0')}-01-${next.getUTCFullYear()}`;
    expect(problems('eligibility', { ...eligibility, patientDOB: future })).toEqual([
      { field: 'patientDOB', message: 'must be a real calendar date in the form MM-DD-YYYY, not in the future' },
    ]);
  });

  it('measures names after trimming for blankness and on the raw value for length: blank fails, 60 passes, 61 fails', () => {
    expect(fields('eligibility', { ...eligibility, patientFirstName: '   ' })).toEqual(['patientFirstName']);
    expect(problems('eligibility', { ...eligibility, patientLastName: `  ${'a'.repeat(56)}  ` })).toEqual([]);
    expect(problems('eligibility', { ...eligibility, patientLastName: 'a'.repeat(60) })).toEqual([]);
    expect(fields('eligibility', { ...eligibility, patientLastName: 'a'.repeat(61) })).toEqual(['patientLastName']);
    // Padding counts: limits hold on the raw value (docs/security.md#strings).
    expect(problems('eligibility', { ...eligibility, patientFirstName: `  ${'a'.repeat(60)}  ` })).toEqual([
      { field: 'patientFirstName', message: 'must be at most 60 characters long (spaces count)' },
    ]);
  });

  it('refuses a 3,000-space provider id on its raw length, before any trimming', () => {
    expect(problems('eligibility', { ...eligibility, providerId: ' '.repeat(3000) })).toEqual([
      { field: 'providerId', message: 'must be at most 80 characters long (spaces count)' },
    ]);
    expect(fields('cob', { ...cob, providerId: `${' '.repeat(3000)}P1` })).toEqual(['providerId']);
  });

  it.each([0x00, 0x09, 0x0a, 0x0d, 0x1f, 0x7f])('refuses the control character %i in every string but the file', (code) => {
    const ch = String.fromCharCode(code);
    expect(fields('eligibility', { ...eligibility, patientFirstName: `Jo${ch}hn`, payerId: `P${ch}1`, providerId: `${ch}X` })).toEqual([
      'patientFirstName',
      'payerId',
      'providerId',
    ]);
    expect(fields('letter', { ...letter, patient_name: `A${ch}B`, provider_email: `a${ch}@b.co`, facility_name: `F${ch}` })).toEqual(
      expect.arrayContaining(['patient_name', 'provider_email', 'facility_name']),
    );
  });

  it('allows line breaks, and nothing else below U+0020, in the base64 file', () => {
    expect(problems('letter', { ...letter, file_content: 'JVBE\r\nRi0x\n' })).toEqual([]);
    expect(fields('letter', { ...letter, file_content: 'JVBE\tRi0x' })).toEqual(['file_content']);
  });

  it.each(['***', '^:~', ' * ~ ', '\u00a0*'])('refuses a name or id made only of X12 delimiters and spaces (%j), naming the field', (value) => {
    const errors = problems('eligibility', { ...eligibility, patientLastName: value, patientMemberId: value, payerId: value });
    expect(errors.map((e) => e.field)).toEqual(['patientLastName', 'patientMemberId', 'payerId']);
    expect(errors[0]!.message).toMatch(/letter or digit/);
  });

  it('keeps names that merely contain a delimiter (cleaning replaces it later)', () => {
    expect(problems('eligibility', { ...eligibility, patientLastName: "O'Brien-Smith*Jr" })).toEqual([]);
  });

  it('bounds member id, payer id and provider id at 80, and accepts non-UUID provider ids', () => {
    expect(problems('eligibility', { ...eligibility, patientMemberId: 'm'.repeat(80), providerId: 'PROVIDER001' })).toEqual([]);
    expect(fields('eligibility', { ...eligibility, patientMemberId: 'm'.repeat(81), payerId: '', providerId: 'p'.repeat(81) })).toEqual([
      'patientMemberId',
      'payerId',
      'providerId',
    ]);
  });

  it('reports wrong types per field', () => {
    expect(problems('eligibility', { ...eligibility, patientFirstName: 42 })).toEqual([{ field: 'patientFirstName', message: 'must be text' }]);
  });
});

describe('COB body', () => {
  it('needs only the five required fields', () => {
    expect(problems('cob', cob)).toEqual([]);
  });

  it.each(['123-45-6789', '123456789'])('accepts SSN %s', (ssn) => {
    expect(problems('cob', { ...cob, patientSSN: ssn })).toEqual([]);
  });

  it.each(['12345678', '1234567890', '123-456-789', 'abc-de-fghi'])('rejects SSN %s', (ssn) => {
    expect(fields('cob', { ...cob, patientSSN: ssn })).toEqual(['patientSSN']);
  });

  it('checks service type codes against the X12 list, item by item', () => {
    expect(problems('cob', { ...cob, serviceTypeCodes: ['30', '98', 'MH'] })).toEqual([]);
    expect(problems('cob', { ...cob, serviceTypeCodes: ['30', 'ZZ9'] })).toEqual([
      { field: 'serviceTypeCodes[1]', message: 'must be an X12 005010 service type code' },
    ]);
    expect(fields('cob', { ...cob, serviceTypeCodes: [] })).toEqual(['serviceTypeCodes']);
  });

  it('wants a dependent named by first name, last name and date of birth together', () => {
    expect(problems('cob', { ...cob, dependentFirstName: 'Leo', dependentLastName: 'Ruiz', dependentDOB: '05-05-2015' })).toEqual([]);
    expect(fields('cob', { ...cob, dependentFirstName: 'Leo' })).toEqual(['dependentDOB', 'dependentLastName']);
  });
});

describe('letter body', () => {
  it('accepts a valid body and both output formats', () => {
    expect(problems('letter', letter)).toEqual([]);
    expect(problems('letter', { ...letter, output_format: 'pdf' })).toEqual([]);
  });

  it('rejects a bad e-mail and an unknown output format', () => {
    expect(problems('letter', { ...letter, provider_email: 'not-an-email', output_format: 'docx' })).toEqual([
      { field: 'provider_email', message: 'must be an e-mail address' },
      { field: 'output_format', message: 'must be text or pdf' },
    ]);
  });

  it('requires every field but output_format', () => {
    expect(fields('letter', {})).toHaveLength(10);
  });
});

describe('names and identifiers (r3): no invisible or direction-control characters, a letter or digit', () => {
  const INVISIBLE = [
    '\u200B',
    '\u200C',
    '\u200D',
    '\u200E',
    '\u200F',
    '\u202A',
    '\u202B',
    '\u202C',
    '\u202D',
    '\u202E',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\uFEFF',
  ];
  const invisibleMessage = 'must not contain invisible or direction-control characters (such as zero-width spaces, direction marks or byte-order marks)';

  it.each(INVISIBLE.map((ch) => [`U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`, ch]))('%s is refused in names and ids on every route', (_label, ch) => {
    expect(
      problems('eligibility', { ...eligibility, patientFirstName: `Jo${ch}hn`, patientLastName: ch, payerId: `P${ch}1`, patientMemberId: `${ch}123` }),
    ).toEqual([
      { field: 'patientFirstName', message: invisibleMessage },
      { field: 'patientLastName', message: invisibleMessage },
      { field: 'patientMemberId', message: invisibleMessage },
      { field: 'payerId', message: invisibleMessage },
    ]);
    expect(fields('cob', { ...cob, dependentFirstName: `L${ch}`, dependentLastName: 'Ruiz', dependentDOB: '05-05-2015', providerId: `${ch}P` })).toEqual([
      'dependentFirstName',
      'providerId',
    ]);
    expect(
      fields('letter', { ...letter, patient_name: `Ana${ch}`, provider_name: `${ch}Lee`, patient_identifier: `PT${ch}1`, facility_name: `C${ch}` }),
    ).toEqual(['facility_name', 'patient_identifier', 'patient_name', 'provider_name']);
  });

  it.each(['-', '.', "' '", '--', '()', '\u00a0'])('a name with no letter or digit (%j) is refused', (value) => {
    expect(problems('eligibility', { ...eligibility, patientLastName: value })).toEqual([
      { field: 'patientLastName', message: 'must contain a letter or digit, not only spaces or the characters * ^ : ~' },
    ]);
  });

  it.each(['Иван', '李小龍', 'محمد', 'José María', "O'Brien-Smith", 'Nguyễn', '9'])('a name in any script is accepted (%s)', (value) => {
    expect(problems('eligibility', { ...eligibility, patientFirstName: value, patientLastName: value })).toEqual([]);
  });
});

describe("the letter's optional fields follow the same rules", () => {
  it.each([
    ['member_id', 'a NUL', '\u0000123', 'must not contain control characters (such as tabs, line breaks or NUL)'],
    ['member_id', 'a terminal escape', '\u001b[31mRED', 'must not contain control characters (such as tabs, line breaks or NUL)'],
    ['member_id', '100,000 spaces', `${' '.repeat(100_000)}M1`, 'must be at most 80 characters long (spaces count)'],
    [
      'member_id',
      'a zero-width space',
      'M\u200B1',
      'must not contain invisible or direction-control characters (such as zero-width spaces, direction marks or byte-order marks)',
    ],
    ['payer_name', 'a NUL', 'Aetna\u0000', 'must not contain control characters (such as tabs, line breaks or NUL)'],
    ['payer_name', '100,000 spaces', ' '.repeat(100_000), 'must be at most 120 characters long (spaces count)'],
    [
      'payer_name',
      'a right-to-left override',
      '\u202EanteA',
      'must not contain invisible or direction-control characters (such as zero-width spaces, direction marks or byte-order marks)',
    ],
    ['patient_dob', 'an impossible date', '02-30-1980', 'must be a real calendar date in the form MM-DD-YYYY, not in the future'],
    ['patient_dob', 'an ISO date and a NUL', '1980-01-01\u0000', 'must be at most 10 characters long (spaces count)'],
    ['provider_npi', '100,000 spaces', ' '.repeat(100_000), 'must be at most 10 characters long (spaces count)'],
    ['provider_npi', 'a wrong check digit', '1234567890', 'must be a 10-digit NPI whose last digit is its check digit (as on the NPPES registry)'],
  ])('%s with %s → %s', (field, _label, value, message) => {
    expect(problems('letter', { ...letter, [field]: value })).toEqual([{ field, message }]);
  });

  it('accepts them when well-formed', () => {
    expect(problems('letter', { ...letter, member_id: 'W123456789', payer_name: 'Aetna', patient_dob: '01-01-1980', provider_npi: '1234567893' })).toEqual([]);
  });
});

describe('COB service type codes (r3): 1–10, like eligibility', () => {
  it('refuses 11 codes', () => {
    const eleven = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11'];
    expect(problems('cob', { ...cob, serviceTypeCodes: eleven })).toEqual([{ field: 'serviceTypeCodes', message: 'must list at most 10 service type codes' }]);
    expect(problems('cob', { ...cob, serviceTypeCodes: eleven.slice(0, 10) })).toEqual([]);
  });
});
