/**
 * The letter answer (docs/letter.md#response), declared once: lib/letter's answer type is derived from
 * it, and the OpenAPI document and the tests read it.
 */
import { noticeSchema, str } from './shared.js';

const letterCode = {
  title: 'VerifiedCode',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'pages'],
  properties: {
    code: str(),
    description: str(),
    pages: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      description: "The notes' pages (1-based) where the code was found, in its text layer or a cited passage.",
    },
  },
} as const;

export const citationSchema = {
  title: 'Citation',
  type: 'object',
  additionalProperties: false,
  required: ['page', 'citedText'],
  properties: {
    page: { type: 'integer', minimum: 1, description: '1-based start page of the cited passage.' },
    citedText: {
      type: 'string',
      maxLength: 500,
      description: 'The passage as the AI service quoted it (at most 500 characters), plain text: escape it before rendering it in HTML.',
    },
  },
} as const;

const adjustmentCode = {
  title: 'AdjustmentCode',
  type: 'object',
  additionalProperties: false,
  required: ['code', 'description'],
  properties: { code: str(), description: str('From the bundled X12 list (docs/letter.md#appeals).') },
} as const;

const criterionSchema = {
  title: 'Criterion',
  type: 'object',
  additionalProperties: false,
  required: ['criterion', 'policyPages', 'status', 'evidence'],
  properties: {
    criterion: str("The criterion in the policy's words."),
    policyPages: { type: 'array', items: { type: 'integer', minimum: 1 }, description: "The policy's pages it was cited from (found there)." },
    status: { type: 'string', enum: ['met', 'not_met', 'unclear'], description: 'met only with at least one notes passage found in the notes.' },
    evidence: { type: 'array', maxItems: 10, items: citationSchema, description: "The notes' passages that bear on it." },
  },
} as const;

export const letterResponseSchema = {
  title: 'LetterResponse',
  type: 'object',
  additionalProperties: false,
  required: ['timestamp', 'invoice_cost', 'patient_identifier', 'codes', 'citations', 'notices'],
  description: 'letter (output_format text, the default) or fileContent (pdf), never both. docs/letter.md describes codes, citations and notices.',
  properties: {
    letter: str('The whole letter in markdown.'),
    fileContent: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf', description: 'The letter as a base64 PDF (US Letter).' },
    timestamp: { type: 'string', format: 'date-time', description: 'When the letter was generated (ISO 8601 UTC).' },
    invoice_cost: str('Exactly the visit_cost given.'),
    patient_identifier: str('The patient_identifier given.'),
    codes: {
      type: 'object',
      additionalProperties: false,
      required: ['icd10', 'cpt'],
      description:
        'Every ICD-10-CM (icd10), CPT or HCPCS (cpt) code in the letter body. A code the notes do not hold is removed from the body and named in an UNVERIFIED_CODE_REMOVED notice; for a scan (no text layer) codes stay unchecked, with a NOTES_NOT_MACHINE_READABLE notice.',
      properties: { icd10: { type: 'array', items: letterCode }, cpt: { type: 'array', items: letterCode } },
    },
    citations: {
      type: 'array',
      maxItems: 100,
      description:
        'The notes\' passages the letter cites, in order of first use; the letter marks them "[p. N]" and lists them under "Source documentation". A citation counts only when its page exists and its text is found on that page of the notes: others are dropped with a CITATION_NOT_FOUND notice, and past 100 a CITATIONS_LIMITED notice counts the rest.',
      items: citationSchema,
    },
    notices: { type: 'array', items: noticeSchema },
    criteria: {
      type: 'array',
      maxItems: 30,
      items: criterionSchema,
      description:
        "When policy_file_content is given: the policy's criteria in its order. A criterion whose policy citation is not found in the policy is dropped (CITATION_NOT_FOUND); criteria not met are named in CRITERIA_NOT_MET.",
    },
    missingEvidence: { type: 'array', items: str(), description: 'One plain sentence per criterion not met or unclear.' },
    denial: {
      type: 'object',
      additionalProperties: false,
      required: ['reason', 'carcCodes', 'rarcCodes'],
      description: "Appeals: the denial answered. Codes are kept only when the denial's text holds them and the bundled X12 lists know them.",
      properties: {
        reason: str("The denial's stated reason, as quoted from it (or a sentence saying it could not be confirmed)."),
        carcCodes: { type: 'array', items: adjustmentCode },
        rarcCodes: { type: 'array', items: adjustmentCode },
        appealDeadline: str('As the denial states it, only when it does.'),
      },
    },
  },
  // Each branch names its property so the schema compiles in ajv's strict mode.
  oneOf: [
    { required: ['letter'], properties: { letter: { type: 'string' } } },
    { required: ['fileContent'], properties: { fileContent: { type: 'string' } } },
  ],
} as const;
