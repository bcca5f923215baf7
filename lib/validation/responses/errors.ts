/**
 * The error bodies (docs/api.md#errors) and the health answer, declared once: lib/errors' body type is
 * derived from errorResponseSchema, and the OpenAPI document and the tests read them.
 */
import { ERROR_TABLE, type ErrorCode } from '../../errors/index.js';
import { discoveryPartSchema } from './discovery-part.js';
import { str } from './shared.js';

const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

export const healthResponseSchema = {
  title: 'HealthResponse',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'version'],
  properties: { status: { type: 'string', const: 'ok' }, version: str('The service version (package.json).') },
} as const;

export const errorResponseSchema = {
  title: 'Error',
  type: 'object',
  additionalProperties: false,
  required: ['message', 'code', 'requestId'],
  properties: {
    message: str('What went wrong, for a person.'),
    code: { type: 'string', enum: ERROR_CODES },
    requestId: str('The request id, also in the x-request-id header.'),
    errors: {
      type: 'array',
      maxItems: 50,
      description: 'INVALID_REQUEST: every problem, at most 50.',
      items: {
        title: 'FieldError',
        type: 'object',
        additionalProperties: false,
        required: ['field', 'message'],
        properties: { field: str('The field, e.g. patientDOB or serviceTypeCodes[2].'), message: str('What is wrong with it, in plain words.') },
      },
    },
    errorsTruncated: { type: 'boolean', description: 'true when more than 50 problems were found.' },
    // PAYER_REJECTED of an eligibility check sent with discoverOnInactive (docs/finding-coverage.md).
    discovery: discoveryPartSchema,
    rejections: {
      type: 'array',
      description: "PAYER_REJECTED (and AAA-based 502/503): the payer's AAA segments.",
      items: {
        title: 'Rejection',
        type: 'object',
        additionalProperties: false,
        required: ['code', 'description', 'followUpAction', 'loop'],
        properties: {
          code: str('AAA03 reject reason code.'),
          description: str(),
          followUpAction: str('AAA04 follow-up action with its description.'),
          loop: str(),
        },
      },
    },
  },
} as const;

/** The exact bodies of docs/api.md#errors (401, 403, mock-not-found, mock scenario 4, gateway 429). */
export const messageOnlySchema = {
  title: 'MessageOnly',
  type: 'object',
  additionalProperties: false,
  required: ['message'],
  properties: { message: str() },
} as const;
