import { SERVICE_TYPE_CODES } from '../x12/service-type-codes.js';

/**
 * JSON Schemas of the three request bodies: the single source of truth for validation (and for
 * the OpenAPI document). Custom formats are defined in ./formats.ts; the rules are in docs/api.md#validation.
 */

/**
 * Hostile-input rules every string follows (docs/security.md#strings): `maxLength` holds on the raw
 * value, before any trimming, and `pattern` refuses control characters. Values that go into the
 * X12 270 or the COB request must also hold at least one character that survives X12 cleaning
 * (lib/x12/clean.ts): a name made only of `*`, `^`, `:`, `~` and spaces would leave the element empty.
 * Each pattern has a message for people in ./index.ts (PATTERN_MESSAGES).
 */
/** No C0 control character and no DEL. */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';
/** As NO_CONTROL_CHARACTERS, but line breaks are allowed (MIME base64 wraps lines). */
export const BASE64_TEXT = '^[^\\u0000-\\u0009\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';
/**
 * No control character, and at least one character that is neither whitespace nor an X12
 * delimiter. Written so the engine never backtracks more than once per character: the leading
 * class and the required character exclude each other.
 */
/** A CPT, HCPCS or CDT procedure code: five capital letters or digits. */
export const PROCEDURE_CODE = '^[A-Z0-9]{5}$';

export const X12_VALUE =
  '^[ \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF*^:~]*[^\\s*^:~\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

const name = { type: 'string', format: 'person-name', maxLength: 60, pattern: X12_VALUE } as const;
const usDate = { type: 'string', format: 'us-date', maxLength: 10 } as const;
const pastUsDate = { type: 'string', format: 'past-us-date', maxLength: 10 } as const;
const identifier = { type: 'string', format: 'identifier', maxLength: 80, pattern: X12_VALUE } as const;
const memberId = { type: 'string', format: 'member-id', maxLength: 80, pattern: X12_VALUE } as const;
const text = (maxLength: number) => ({ type: 'string', format: 'non-blank', maxLength, pattern: NO_CONTROL_CHARACTERS }) as const;

export const eligibilitySchema = {
  $id: 'eligibility',
  type: 'object',
  additionalProperties: false,
  required: ['patientFirstName', 'patientLastName', 'patientDOB', 'patientMemberId', 'dateOfCoverage', 'payerId', 'providerId'],
  properties: {
    patientFirstName: name,
    patientLastName: name,
    patientDOB: pastUsDate,
    patientMemberId: memberId,
    dateOfCoverage: usDate,
    payerId: identifier,
    providerId: identifier,
    mockRequest: { type: 'boolean' },
    runCobCheck: { type: 'boolean' },
    // docs/eligibility.md#what-the-request-asks: each item becomes one 2110C EQ of the 270.
    serviceTypeCodes: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      items: { type: 'string', enum: Object.keys(SERVICE_TYPE_CODES) },
    },
    procedureCodes: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      items: { type: 'string', pattern: PROCEDURE_CODE },
    },
  },
} as const;

export const cobSchema = {
  $id: 'cob',
  type: 'object',
  additionalProperties: false,
  required: ['patientFirstName', 'patientLastName', 'dateOfCoverage', 'payerId', 'providerId'],
  properties: {
    patientFirstName: name,
    patientLastName: name,
    dateOfCoverage: usDate,
    payerId: identifier,
    providerId: identifier,
    patientDOB: pastUsDate,
    patientMemberId: memberId,
    patientSSN: { type: 'string', format: 'ssn', maxLength: 11 },
    dependentFirstName: name,
    dependentLastName: name,
    dependentDOB: pastUsDate,
    serviceTypeCodes: {
      type: 'array',
      minItems: 1,
      maxItems: 99,
      uniqueItems: true,
      items: { type: 'string', enum: Object.keys(SERVICE_TYPE_CODES) },
    },
    mockRequest: { type: 'boolean' },
  },
  // A dependent is named by first name, last name and date of birth together.
  dependentRequired: {
    dependentFirstName: ['dependentLastName', 'dependentDOB'],
    dependentLastName: ['dependentFirstName', 'dependentDOB'],
    dependentDOB: ['dependentFirstName', 'dependentLastName'],
  },
} as const;

export const letterSchema = {
  $id: 'letter',
  type: 'object',
  additionalProperties: false,
  required: [
    'file_content',
    'patient_identifier',
    'patient_name',
    'patient_age',
    'facility_name',
    'visit_cost',
    'provider_email',
    'provider_phone',
    'provider_signature',
    'provider_name',
  ],
  properties: {
    // Size (4 MiB decoded) and PDF checks happen after validation, with their own error codes.
    file_content: { type: 'string', minLength: 1, pattern: BASE64_TEXT },
    patient_identifier: text(80),
    patient_name: text(120),
    patient_age: text(20),
    facility_name: text(200),
    visit_cost: text(40),
    provider_email: { type: 'string', format: 'email', maxLength: 254, pattern: NO_CONTROL_CHARACTERS },
    provider_phone: text(40),
    provider_signature: text(200),
    provider_name: text(200),
    output_format: { type: 'string', enum: ['text', 'pdf'] },
    // Optional "Re:" block lines (docs/letter.md#layout): each shown only when given.
    payer_name: text(120),
    member_id: { type: 'string', format: 'member-id' },
    patient_dob: pastUsDate,
    provider_npi: { type: 'string', format: 'npi' },
  },
} as const;

/**
 * The FHIR `$submit` body (docs/fhir.md): only its outer shape is checked here, so a Bundle of up to 50
 * entries reaches lib/fhir, which reads the resources and holds the values it maps to the eligibility
 * body to the eligibility schema above.
 */
export const fhirBundleSchema = {
  $id: 'fhir',
  type: 'object',
  required: ['resourceType', 'entry'],
  // A Bundle has more elements (id, meta, type, timestamp…): FHIR's own rules, not ours, govern them.
  additionalProperties: true,
  properties: {
    resourceType: { const: 'Bundle' },
    entry: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'object', additionalProperties: true } },
  },
} as const;

export interface EligibilityRequest {
  patientFirstName: string;
  patientLastName: string;
  patientDOB: string;
  patientMemberId: string;
  dateOfCoverage: string;
  payerId: string;
  providerId: string;
  mockRequest?: boolean;
  runCobCheck?: boolean;
  /** X12 005010 service type codes, 1–10 distinct (default ["30"]). */
  serviceTypeCodes?: string[];
  /** CPT/HCPCS/CDT codes, 1–10 distinct, each five letters or digits. */
  procedureCodes?: string[];
}

export interface CobRequest {
  patientFirstName: string;
  patientLastName: string;
  dateOfCoverage: string;
  payerId: string;
  providerId: string;
  patientDOB?: string;
  patientMemberId?: string;
  patientSSN?: string;
  dependentFirstName?: string;
  dependentLastName?: string;
  dependentDOB?: string;
  serviceTypeCodes?: string[];
  mockRequest?: boolean;
}

export interface LetterRequest {
  file_content: string;
  patient_identifier: string;
  patient_name: string;
  patient_age: string;
  facility_name: string;
  visit_cost: string;
  provider_email: string;
  provider_phone: string;
  provider_signature: string;
  provider_name: string;
  output_format?: 'text' | 'pdf';
  payer_name?: string;
  member_id?: string;
  patient_dob?: string;
  provider_npi?: string;
}

/** A FHIR R4 Bundle as it arrives (every other key is read by lib/fhir/request.ts). */
export interface FhirBundleRequest {
  resourceType: 'Bundle';
  entry: Record<string, unknown>[];
  [key: string]: unknown;
}

export const SCHEMAS = { eligibility: eligibilitySchema, cob: cobSchema, letter: letterSchema, fhir: fhirBundleSchema } as const;
export type SchemaName = keyof typeof SCHEMAS;
export interface RequestBodies {
  eligibility: EligibilityRequest;
  cob: CobRequest;
  letter: LetterRequest;
  fhir: FhirBundleRequest;
}
