import type { FromSchema } from 'json-schema-to-ts';
import { SERVICE_TYPE_CODES } from '../x12/index.js';
import { US_DATE_PATTERN } from './formats.js';

/**
 * JSON Schemas of the three request bodies: the single source of truth for validation (and for
 * the OpenAPI document). Custom formats are defined in ./formats.ts; the rules are in docs/api.md#validation.
 */

/**
 * Hostile-input rules every string follows (docs/security.md#strings): `maxLength` holds on the raw
 * value, before any trimming, and `pattern` refuses control characters. Names and identifiers also
 * refuse invisible and direction-control characters and must hold a letter or digit, which X12
 * cleaning (lib/x12/clean.ts) never removes: a name made only of `*`, `^`, `:`, `~`, spaces or
 * zero-width characters would otherwise leave its element empty or invisible.
 * Each pattern has a message for people in ./index.ts (PATTERN_MESSAGES). Every constraint lives
 * here, in the schema the compiled validators and openapi.json are both built from (a test compares them).
 */
/** C0 control characters and DEL. */
const CONTROL = '\\u0000-\\u001F\\u007F';
/**
 * Invisible and direction-control characters: zero-width space/joiners and LRM/RLM
 * (U+200B–U+200F), embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the
 * zero-width no-break space / byte-order mark (U+FEFF).
 */
export const INVISIBLE = '\\u200B-\\u200F\\u202A-\\u202E\\u2066-\\u2069\\uFEFF';

/** No C0 control character and no DEL. */
export const NO_CONTROL_CHARACTERS = `^[^${CONTROL}]*$`;
/** As NO_CONTROL_CHARACTERS, but line breaks are allowed (MIME base64 wraps lines). */
export const BASE64_TEXT = '^[^\\u0000-\\u0009\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';
/**
 * A name or identifier: no control or invisible character, and at least one letter or digit (any
 * script). Written so the engine never backtracks more than once per character: the leading class
 * and the required letter-or-digit exclude each other. Compiled with the `u` flag (ajv's default).
 */
export const NAME_OR_ID = `^[^${CONTROL}${INVISIBLE}\\p{L}\\p{N}]*[\\p{L}\\p{N}][^${CONTROL}${INVISIBLE}]*$`;
/** A CPT, HCPCS or CDT procedure code: five capital letters or digits. */
export const PROCEDURE_CODE = '^[A-Z0-9]{5}$';
/** Nine digits, dashes allowed as 123-45-6789. */
export const SSN = '^\\d{3}-?\\d{2}-?\\d{4}$';
/** A ZIP code: five digits, or ZIP+4 with or without its dash. */
export const ZIP_CODE = '^\\d{5}(-?\\d{4})?$';

const name = { type: 'string', format: 'person-name', minLength: 1, maxLength: 60, pattern: NAME_OR_ID } as const;
const usDate = { type: 'string', format: 'us-date', maxLength: 10, pattern: US_DATE_PATTERN } as const;
const pastUsDate = { type: 'string', format: 'past-us-date', maxLength: 10, pattern: US_DATE_PATTERN } as const;
const identifier = { type: 'string', format: 'identifier', minLength: 1, maxLength: 80, pattern: NAME_OR_ID } as const;
const memberId = { type: 'string', format: 'member-id', minLength: 1, maxLength: 80, pattern: NAME_OR_ID } as const;
/** Free text of the letter (a phone, a cost, a signature): not blank, no control characters. */
const text = (maxLength: number) => ({ type: 'string', format: 'non-blank', minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS }) as const;
/** A name or identifier printed in the letter. */
const letterName = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: NAME_OR_ID }) as const;
/** Each becomes one 2110C EQ of the 270 (docs/eligibility.md#what-the-request-asks); 1–10 like eligibility's on every route. */
const serviceTypeCodes = {
  type: 'array',
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  items: { type: 'string', enum: Object.keys(SERVICE_TYPE_CODES) },
} as const;

/** The most an estimate line's amount may be (docs/eligibility.md#estimate). */
const MAX_ESTIMATE_AMOUNT = 1_000_000;
/** What the patient may owe (docs/eligibility.md#estimate): a guide; the payer adjudicates the claim. */
const estimate = {
  type: 'object',
  additionalProperties: false,
  required: ['lines'],
  description:
    "Estimate what the patient owes for these lines: a guide from the payer's eligibility reply, not a promise; the payer adjudicates the claim. Send each line's allowed amount (the practice's contracted rate with this payer), not its charge.",
  properties: {
    network: { type: 'string', enum: ['in', 'out'], description: 'The network whose figures apply (default in).' },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['amount'],
        properties: {
          procedureCode: { type: 'string', pattern: PROCEDURE_CODE, description: 'Also asked about in the 270, as if in procedureCodes.' },
          serviceTypeCode: {
            type: 'string',
            enum: Object.keys(SERVICE_TYPE_CODES),
            description:
              "Default: the procedure code's service type by the documented crosswalk (docs/eligibility.md#procedure-crosswalk), else 30; also asked about in the 270, as if in serviceTypeCodes.",
          },
          amount: {
            type: 'number',
            exclusiveMinimum: 0,
            maximum: MAX_ESTIMATE_AMOUNT,
            description:
              "The allowed amount in dollars (the practice's contracted rate with this payer, not its charge), at most two decimals. Out of network the provider may also bill the difference between its charge and the allowed amount.",
          },
        },
      },
    },
  },
} as const;

const eligibilitySchema = {
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
    serviceTypeCodes,
    procedureCodes: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      uniqueItems: true,
      items: { type: 'string', pattern: PROCEDURE_CODE },
    },
    estimate,
    discoverOnInactive: {
      type: 'boolean',
      description:
        'When the answer is Inactive, or the payer rejects with AAA 72, 73, 75 or 76 (member not found), start an insurance discovery for the same patient and add `discovery` to the answer (docs/finding-coverage.md#discovery-when-the-check-finds-nothing).',
    },
  },
} as const;

/** A US state or territory, as the 270's N4 carries it. */
const US_STATES = (
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
  'AS GU MP PR VI'
).split(' ');
const usState = { type: 'string', enum: US_STATES } as const;
const ssn = { type: 'string', maxLength: 11, pattern: SSN } as const;

/** POST /api/insurance-discovery/v1 (docs/finding-coverage.md#insurance-discovery). */
const discoverySchema = {
  $id: 'discovery',
  type: 'object',
  additionalProperties: false,
  required: ['patientFirstName', 'patientLastName', 'patientDOB', 'dateOfService', 'providerId'],
  properties: {
    patientFirstName: name,
    patientLastName: name,
    patientDOB: pastUsDate,
    patientGender: { type: 'string', enum: ['M', 'F'], description: 'M or F, as the patient is registered with the payer.' },
    patientAddress: {
      type: 'object',
      additionalProperties: false,
      required: ['street', 'city', 'state', 'zip'],
      description: 'Where the patient lives: the ZIP code narrows the payers searched.',
      properties: {
        street: text(55),
        city: text(30),
        state: usState,
        zip: { type: 'string', pattern: ZIP_CODE, maxLength: 10, description: 'Five digits, or ZIP+4.' },
      },
    },
    patientSSN: ssn,
    dateOfService: usDate,
    providerId: identifier,
  },
} as const;

/** POST /api/medicare/mbi/v1 (docs/finding-coverage.md#medicare-number): patientSSN or patientState is required (a rule: ./rules.ts). */
const mbiSchema = {
  $id: 'mbi',
  type: 'object',
  additionalProperties: false,
  required: ['patientFirstName', 'patientLastName', 'patientDOB', 'dateOfCoverage', 'providerId'],
  properties: {
    patientFirstName: name,
    patientLastName: name,
    patientDOB: pastUsDate,
    patientSSN: { ...ssn, description: 'With the SSN the lookup finds the number more often (Stedi recommends it).' },
    patientState: { ...usState, description: 'The state the patient lives in: the lookup without an SSN asks by it.' },
    dateOfCoverage: usDate,
    providerId: identifier,
  },
} as const;

const cobSchema = {
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
    patientSSN: ssn,
    dependentFirstName: name,
    dependentLastName: name,
    dependentDOB: pastUsDate,
    serviceTypeCodes,
    mockRequest: { type: 'boolean' },
  },
  // A dependent is named by first name, last name and date of birth together.
  dependentRequired: {
    dependentFirstName: ['dependentLastName', 'dependentDOB'],
    dependentLastName: ['dependentFirstName', 'dependentDOB'],
    dependentDOB: ['dependentFirstName', 'dependentLastName'],
  },
} as const;

const letterSchema = {
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
    patient_identifier: letterName(80),
    patient_name: letterName(120),
    patient_age: text(20),
    facility_name: letterName(200),
    visit_cost: text(40),
    provider_email: { type: 'string', format: 'email', maxLength: 254, pattern: NO_CONTROL_CHARACTERS },
    provider_phone: text(40),
    provider_signature: text(200),
    provider_name: letterName(200),
    output_format: { type: 'string', enum: ['text', 'pdf'] },
    // Optional "Re:" block lines (docs/letter.md#layout): each shown only when given.
    // They follow the same rules as the eligibility fields of the same meaning (docs/security.md#strings).
    payer_name: letterName(120),
    member_id: memberId,
    patient_dob: pastUsDate,
    provider_npi: { type: 'string', maxLength: 10, format: 'npi' },
    // Letters against the payer's criteria (docs/letter.md#letter-types).
    letter_type: { type: 'string', enum: ['medical_necessity', 'prior_authorization', 'appeal'] },
    // Read like file_content, after validation (same limits and gate).
    policy_file_content: { type: 'string', minLength: 1, pattern: BASE64_TEXT },
    policy_name: text(200),
    // Required when letter_type is appeal (./rules.ts).
    denial_file_content: { type: 'string', minLength: 1, pattern: BASE64_TEXT },
    requested_services: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['code'],
        properties: {
          code: { type: 'string', pattern: PROCEDURE_CODE },
          units: { type: 'integer', exclusiveMinimum: 0, maximum: 9999 },
          dateFrom: usDate,
          dateTo: usDate,
        },
      },
    },
  },
} as const;

/** A photo of one side of a card (docs/finding-coverage.md#insurance-card): size and format are checked after validation, with their own error codes. */
const cardImage = (side: string) =>
  ({
    type: 'string',
    minLength: 1,
    pattern: BASE64_TEXT,
    description: `The ${side} of the card: base64 of a JPEG, PNG or WebP image, at most 2 MiB decoded and 8,000 pixels a side (downscale photos to about 1,600 pixels on the long edge).`,
  }) as const;

const cardSchema = {
  $id: 'card',
  type: 'object',
  additionalProperties: false,
  required: ['front'],
  properties: {
    front: cardImage('front'),
    back: cardImage('back'),
    check: {
      type: 'object',
      additionalProperties: false,
      required: ['patientDOB', 'dateOfCoverage', 'providerId'],
      description:
        "Also run the eligibility check with the card's member id and the best payer match; the answer gains `eligibility` (the eligibility answer, or its error body).",
      properties: { patientDOB: pastUsDate, dateOfCoverage: usDate, providerId: identifier, serviceTypeCodes, estimate },
    },
  },
} as const;

/**
 * The FHIR `$submit` body (docs/fhir.md#the-request): only its outer shape is checked here (a Bundle, a
 * bare CoverageEligibilityRequest or a Parameters, their lists bounded), and lib/fhir/request-shapes.ts
 * finds the request in it; lib/fhir reads the resources and holds the values it maps to the eligibility
 * body to the eligibility schema above.
 */
const fhirBundleSchema = {
  $id: 'fhir',
  type: 'object',
  required: ['resourceType'],
  // A resource has more elements (id, meta, type, timestamp…): FHIR's own rules, not ours, govern them.
  additionalProperties: true,
  properties: {
    resourceType: { type: 'string', enum: ['Bundle', 'CoverageEligibilityRequest', 'Parameters'] },
    entry: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'object', additionalProperties: true } },
    contained: { type: 'array', maxItems: 50, items: { type: 'object', additionalProperties: true } },
    parameter: { type: 'array', maxItems: 50, items: { type: 'object', additionalProperties: true } },
  },
} as const;

/**
 * The request bodies' types, derived from the schemas above (types only: nothing reaches a bundle), so a
 * field added to a schema is a field of its type, and a handler that reads a field no schema has fails tsc.
 */
export type EligibilityRequest = FromSchema<typeof eligibilitySchema>;
export type DiscoveryRequest = FromSchema<typeof discoverySchema>;
export type MbiRequest = FromSchema<typeof mbiSchema>;
export type EstimateRequest = FromSchema<typeof estimate>;
export type CobRequest = FromSchema<typeof cobSchema>;
export type LetterRequest = FromSchema<typeof letterSchema>;
export type RequestedService = NonNullable<LetterRequest['requested_services']>[number];
export type CardRequest = FromSchema<typeof cardSchema>;
export type CardCheckRequest = NonNullable<CardRequest['check']>;
/** A `$submit` body as it arrives: a Bundle, a CoverageEligibilityRequest or a Parameters (every other key is read by lib/fhir). */
export type FhirBundleRequest = FromSchema<typeof fhirBundleSchema>;

export const SCHEMAS = {
  eligibility: eligibilitySchema,
  cob: cobSchema,
  letter: letterSchema,
  fhir: fhirBundleSchema,
  discovery: discoverySchema,
  mbi: mbiSchema,
  card: cardSchema,
} as const;
export type SchemaName = keyof typeof SCHEMAS;
export interface RequestBodies {
  eligibility: EligibilityRequest;
  cob: CobRequest;
  letter: LetterRequest;
  fhir: FhirBundleRequest;
  discovery: DiscoveryRequest;
  mbi: MbiRequest;
  card: CardRequest;
}
