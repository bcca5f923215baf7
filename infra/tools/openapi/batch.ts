import { CLIENT_REF, CSV_COLUMNS, DEFAULT_BATCH_SETTINGS, ITEM_STATES, MAX_NAME } from '../../../lib/batch/index.js';
import { batchAcceptedSchema, batchItemPageSchema, batchStatusSchema, SCHEMAS } from '../../../lib/validation/index.js';
import { MOCK_PATIENTS } from '../../../lib/mock/index.js';

/**
 * The batch routes in the OpenAPI document (docs/batch.md): their summaries, operations and schemas.
 * Limits and patterns come from lib/batch, where the routes hold them; each item is the
 * EligibilityRequest schema plus `clientRef`.
 */

type Json = Record<string, unknown>;

export const BATCH_SUMMARIES = {
  submit: {
    operationId: 'submitEligibilityBatch',
    tag: 'Batch eligibility',
    summary: 'Submit a batch of eligibility checks',
    description: `Up to ${DEFAULT_BATCH_SETTINGS.maxItems.toLocaleString('en-US')} eligibility request bodies as JSON (\`{items, name?, callbackUrl?}\`) or CSV (\`Content-Type: text/csv\`, a header row naming request fields, lists separated by \`;\`; \`name\` and \`callbackUrl\` then as query parameters). Each item runs through the real-time eligibility route, so its answer is exactly what POST /api/eligibility/v1 returns. An invalid item is stored as FAILED with the 400 the real-time route gives; it never sinks the batch. Answers 202 with \`Location\`. See docs/batch.md.`,
  },
  status: {
    operationId: 'getEligibilityBatch',
    tag: 'Batch eligibility',
    summary: "A batch's status and counts",
    description: "Another client's batch is 404 NOT_FOUND, exactly like an unknown one.",
  },
  items: {
    operationId: 'listEligibilityBatchItems',
    tag: 'Batch eligibility',
    summary: "A batch's items and their answers",
    description:
      'In index order, paged (`pageSize` 1–500, default 100, `nextPageToken`). With `Accept: text/csv`: the whole batch as CSV, one row per item with the 24 summary slots as columns, no paging.',
  },
  cancel: {
    operationId: 'cancelEligibilityBatch',
    tag: 'Batch eligibility',
    summary: 'Cancel what has not started',
    description: "Items not yet started become CANCELLED; items in progress finish. Answers the batch's status.",
  },
} as const;

export const BATCH_TAG = { name: 'Batch eligibility', description: "A day's schedule checked overnight, on the real-time engine (docs/batch.md)." };

const clientRef = {
  type: 'string',
  pattern: CLIENT_REF.source,
  minLength: 1,
  maxLength: 64,
  description:
    'Your own reference for the item (1–64 visible characters; spaces, tabs and line breaks allowed, no other control characters), echoed intact in its results and never sent upstream.',
};

/** Request schemas and the response schemas (lib/validation/responses/batch.ts), as components. */
const { $id: _id, ...eligibility } = SCHEMAS.eligibility as unknown as Json & { properties: Json };
export const BATCH_SCHEMAS: Record<string, Json> = {
  // The validator's own eligibility schema, plus clientRef: an item is validated exactly like the real-time body.
  BatchItemRequest: { ...eligibility, properties: { ...eligibility.properties, clientRef } },
  BatchRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: DEFAULT_BATCH_SETTINGS.maxItems,
        description: 'Eligibility request bodies (EligibilityRequest), each with an optional clientRef.',
        items: { $ref: '#/components/schemas/BatchItemRequest' },
      },
      name: { type: 'string', minLength: 1, maxLength: MAX_NAME },
      callbackUrl: {
        type: 'string',
        format: 'uri',
        description:
          'https (plain http only to localhost locally); must not resolve to a private, loopback, link-local or metadata address. Receives the signed batch-completed webhook.',
      },
    },
  },
  BatchAccepted: batchAcceptedSchema,
  BatchStatus: batchStatusSchema,
  BatchItemPage: batchItemPageSchema,
};

const batchIdParameter = {
  name: 'batchId',
  in: 'path',
  required: true,
  description: 'The id submit answered.',
  schema: { type: 'string', format: 'uuid' },
  example: '3f0c2a8e-5b1d-4c7a-9e2f-6a1b2c3d4e5f',
};
export const BATCH_PATH_PARAMETERS: Record<string, Json[]> = {
  '/api/eligibility/batch/v1/{batchId}': [batchIdParameter],
  '/api/eligibility/batch/v1/{batchId}/items': [batchIdParameter],
};

interface Builders {
  ok: (schema: string, description: string, examples?: Json) => Json;
  errors: (route: 'batch' | 'batch-read') => Json;
}

const csvExample = [
  'clientRef,patientFirstName,patientLastName,patientDOB,patientMemberId,dateOfCoverage,payerId,providerId,serviceTypeCodes,mockRequest',
  ...MOCK_PATIENTS.slice(0, 2).map(
    (p, i) =>
      `appt-${i + 1},${p.patientFirstName},${p.patientLastName},${p.patientDOB},${p.patientMemberId},${p.dateOfCoverage},${p.payerId},${p.providerId},30;98,true`,
  ),
].join('\r\n');

export function batchOperations({ ok, errors }: Builders): Record<keyof typeof BATCH_SUMMARIES, Json> {
  const xRequestId = { $ref: '#/components/parameters/XRequestId' };
  const example = {
    items: MOCK_PATIENTS.slice(0, 2).map((p, i) => ({ ...p, mockRequest: true, clientRef: `appt-${i + 1}` })),
    name: 'Tuesday schedule',
    callbackUrl: 'https://clinic.example.org/hooks/eligibility',
  };
  return {
    submit: {
      parameters: [
        { $ref: '#/components/parameters/IdempotencyKey' },
        xRequestId,
        { name: 'name', in: 'query', required: false, description: "With a CSV body: the batch's name.", schema: { type: 'string', maxLength: MAX_NAME } },
        { name: 'callbackUrl', in: 'query', required: false, description: 'With a CSV body: the webhook URL.', schema: { type: 'string', format: 'uri' } },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' }, examples: { mock: { summary: 'Two mock checks', value: example } } },
          'text/csv': { schema: { type: 'string' }, examples: { mock: { summary: 'Two mock checks as CSV', value: csvExample } } },
        },
      },
      responses: {
        '202': {
          ...ok('BatchAccepted', 'Accepted: the items are queued. Location names the batch.'),
          headers: {
            Location: { schema: { type: 'string' }, description: "The batch's URL path." },
            'x-request-id': { $ref: '#/components/headers/XRequestId' },
          },
        },
        ...errors('batch'),
      },
    },
    status: { parameters: [xRequestId], responses: { '200': ok('BatchStatus', 'The batch.'), ...errors('batch-read') } },
    items: {
      parameters: [
        xRequestId,
        { name: 'state', in: 'query', required: false, schema: { type: 'string', enum: [...ITEM_STATES] } },
        { name: 'pageSize', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
        { name: 'pageToken', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'Accept', in: 'header', required: false, description: '`text/csv` for the whole batch as CSV.', schema: { type: 'string' } },
      ],
      responses: {
        '200': {
          ...ok('BatchItemPage', 'A page of items.'),
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/BatchItemPage' } },
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  `UTF-8 with a byte-order mark, CRLF; columns: ${CSV_COLUMNS.join(', ')}. ` +
                  'The estimate columns are empty for an item that asked for no estimate; estimate.missing lists what its lines miss, each name once, separated by ;. A clientRef, errorCode or errorMessage cell beginning with =, +, -, @, a tab or a carriage return is written with a leading apostrophe so a spreadsheet shows it as text; figures are written as the JSON answer has them.',
              },
            },
          },
        },
        ...errors('batch-read'),
      },
    },
    cancel: { parameters: [xRequestId], responses: { '200': ok('BatchStatus', 'The batch after the cancel.'), ...errors('batch-read') } },
  };
}
