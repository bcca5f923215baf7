import { EXACT } from '../../../lib/errors/index.js';
import { CORS_ALLOW_HEADERS } from '../../../lib/http/cors.js';
import { operationOf, ROUTE_TABLE, type RouteOperation } from '../../../lib/http/routes.js';
import { FHIR_SUMMARY, fhirOperation } from './fhir.js';
import { UPPER_CASED_LISTS } from '../../../lib/validation/letter-case.js';
import { RESPONSE_SCHEMAS } from '../../../lib/validation/responses/index.js';
import { collectComponents, documentSchema, header, ref } from './components.js';
import { errorResponses, errorSchemaFor, REQUEST_ID } from './errors.js';
import { cobExamples, eligibilityExamples, letterExample } from './examples.js';
import { SCHEMAS } from '../../../lib/validation/schemas.js';
import { SERVICE_VERSION } from '../../../lib/config/version.js';
import type { SandboxExamples } from './sandbox-examples.js';
import { PATH_PARAMETERS, PAYER_SUMMARIES, PAYER_TAGS, payerAndMcpOperations } from './payers-mcp.js';
import { COVERAGE_PATH_PARAMETERS, COVERAGE_SCHEMAS, COVERAGE_SUMMARIES, COVERAGE_TAG, coverageOperations } from './coverage.js';
import { BATCH_PATH_PARAMETERS, BATCH_SCHEMAS, BATCH_SUMMARIES, BATCH_TAG, batchOperations } from './batch.js';
import { payerFromStedi } from '../../../lib/payers/from-stedi.js';
import { readPayerRecord } from '../../../lib/upstream/stedi-payers.js';

/**
 * The OpenAPI 3.1 document, built from the route table, the request JSON Schemas the validator uses,
 * the response schemas (lib/validation/responses) and the error table: nothing here restates a field.
 * Schemas become components in components.ts, error responses come from errors.ts and examples from
 * examples.ts. `npm run openapi` writes it to openapi.json; test/openapi/document.test.ts fails when
 * that file is stale.
 */

type Json = Record<string, unknown>;

const SUMMARIES: Record<RouteOperation, { summary: string; description: string; tag: string; operationId: string }> = {
  eligibility: {
    operationId: 'checkEligibility',
    tag: 'Eligibility',
    summary: 'Check eligibility and benefits',
    description:
      "Sends an X12 270 to the clearinghouse and answers the benefit figures parsed from the payer's 271. `mockRequest: true` answers one of four fixed scenarios instead (no upstream, no charge, no enrollment check). `runCobCheck: true` adds the COB search (`cob`). `estimate` adds what the patient may owe per line (a per-visit deductible, copay, deductible, coinsurance and the out-of-pocket maximum applied in order, to the cent; `N/A` with `missing` where the payer gave no figure): an estimate is a guide from the payer's reply, and the payer adjudicates the claim. Send each line's allowed amount (the practice's contracted rate), not its charge; out of network the provider may bill the difference between the charge and the allowed amount (balance billing). Needs an active enrollment of `providerId` for your client. See docs/eligibility.md.",
  },
  cob: {
    operationId: 'checkCoordinationOfBenefits',
    tag: 'Coordination of benefits',
    summary: 'Search for other coverage (COB)',
    description:
      "Runs Stedi's coordination-of-benefits check and maps the answer to one of five COB codes. Accepts `mockRequest`. Needs an active enrollment of `providerId` for your client.",
  },
  letter: {
    operationId: 'generateLetter',
    tag: 'Letters',
    summary: 'Write a Letter of Medical Necessity',
    description:
      'Turns a procedure-notes PDF (base64, ≤ 4 MiB decoded, ≤ 100 pages) into a Letter of Medical Necessity: markdown (`output_format: text`, the default) or a base64 PDF (`pdf`). The AI writes only the clinical body; codes are verified against the notes. The response streams; allow up to 120 s. See docs/letter.md.',
  },
  fhir: FHIR_SUMMARY,
  health: { operationId: 'getHealth', tag: 'Service', summary: 'Health check', description: 'No authentication, no upstream call, no patient data.' },
  openapi: { operationId: 'getOpenApiDocument', tag: 'Service', summary: 'This OpenAPI document', description: 'No authentication.' },
  payers: PAYER_SUMMARIES.payers,
  lookup: PAYER_SUMMARIES.lookup,
  batch: BATCH_SUMMARIES.submit,
  batchStatus: BATCH_SUMMARIES.status,
  batchItems: BATCH_SUMMARIES.items,
  batchCancel: BATCH_SUMMARIES.cancel,
  ...COVERAGE_SUMMARIES,
  mcp: PAYER_SUMMARIES.mcp,
  docs: {
    operationId: 'getApiReference',
    tag: 'Service',
    summary: 'Interactive API reference',
    description:
      'An HTML page rendering this document (Scalar), with a client that calls the API on the same server ("Test Request"). No authentication; open it in a browser.',
  },
  docsScript: {
    operationId: 'getApiReferenceScript',
    tag: 'Service',
    summary: "The API reference's script",
    description: "Scalar's standalone API reference, served by the API itself (no CDN); the reference page loads it. No authentication.",
  },
};

/** A GET operation answered headers-only (HEAD, for uptime monitors): same status and headers, no body. */
function headOperation(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Json).map(([status, response]) => {
      const { content: _content, ...rest } = response as Json;
      return [status, rest];
    }),
  );
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary} (headers only)`,
    description: `${get.description} The GET answer's status and headers without its body, for uptime monitors.`,
    responses,
  };
}

/** `live`: real sandbox answers (sandbox-examples.ts), computed by the caller because it is async. */
export function buildOpenApiDocument(live: SandboxExamples): Json {
  const requestSchemas = { EligibilityRequest: SCHEMAS.eligibility, CobRequest: SCHEMAS.cob, LetterRequest: SCHEMAS.letter, FhirBundleRequest: SCHEMAS.fhir };
  const responseSchemas = {
    EligibilityResponse: RESPONSE_SCHEMAS.eligibility,
    CobResponse: RESPONSE_SCHEMAS.cob,
    LetterResponse: RESPONSE_SCHEMAS.letter,
    HealthResponse: RESPONSE_SCHEMAS.health,
    Error: RESPONSE_SCHEMAS.error,
    MessageOnly: RESPONSE_SCHEMAS.messageOnly,
    Payer: RESPONSE_SCHEMAS.payer,
    PayerPage: RESPONSE_SCHEMAS.payerPage,
    ...BATCH_SCHEMAS,
    ...COVERAGE_SCHEMAS,
  };
  const components = collectComponents({ ...requestSchemas, ...responseSchemas });
  const schemas: Json = {};
  for (const [schema, name] of components) schemas[name] = documentSchema(schema, components);
  for (const name of Object.keys(schemas)) {
    const schema = schemas[name] as Json;
    delete schema.title;
  }
  // Code lists are upper-cased before validation (lib/validation/letter-case.ts): the schema holds the canonical form.
  for (const name of Object.keys(requestSchemas)) {
    const properties = (schemas[name] as { properties: Record<string, Json> }).properties;
    for (const [field, note] of Object.entries(UPPER_CASED_LISTS)) {
      const property = properties[field];
      if (property) property.description = [property.description, note].filter(Boolean).join(' ');
    }
  }

  const eligibility = eligibilityExamples(live);
  const cob = cobExamples(live);
  const requestBody = (schema: string, examples: Json) => ({ required: true, content: { 'application/json': { schema: ref(schema), examples } } });
  const ok = (schema: string, description: string, examples?: Json) => ({
    description,
    headers: { 'x-request-id': header('XRequestId'), 'Cache-Control': header('CacheControl'), 'Idempotent-Replayed': header('IdempotentReplayed') },
    content: { 'application/json': { schema: ref(schema), ...(examples ? { examples } : {}) } },
  });
  /** A public GET answering one document (no token): the OpenAPI document, the reference page, its script. */
  const publicDocument = (description: string, mediaType: string, schema: Json) => ({
    security: [],
    parameters: [{ $ref: '#/components/parameters/XRequestId' }],
    responses: {
      '200': { description, headers: { 'x-request-id': header('XRequestId') }, content: { [mediaType]: { schema } } },
      '429': { $ref: '#/components/responses/TooManyRequests' },
    },
  });

  const toPage = (stedi: Json): Json => ({
    payers: ((stedi.items as unknown[]) ?? [])
      .map(readPayerRecord)
      .filter((p) => p !== undefined)
      .map(payerFromStedi),
    ...(typeof stedi.nextPageToken === 'string' ? { nextPageToken: stedi.nextPageToken } : {}),
  });
  const payerOperations = payerAndMcpOperations({ ok, errors: (route) => errorResponses(route, {}), toPage });
  const batch = batchOperations({ ok, errors: (route) => errorResponses(route, {}) });
  const coverage = coverageOperations({ ok, errors: (route) => errorResponses(route, {}) });
  const operations: Record<RouteOperation, Json> = {
    batch: batch.submit,
    batchStatus: batch.status,
    batchItems: batch.items,
    batchCancel: batch.cancel,
    ...coverage,
    payers: payerOperations.payers,
    lookup: payerOperations.lookup,
    mcp: payerOperations.mcp,
    eligibility: {
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, { $ref: '#/components/parameters/XRequestId' }],
      requestBody: requestBody('EligibilityRequest', eligibility.requests),
      responses: {
        '200': ok('EligibilityResponse', "The benefit figures (a real check) or a mock scenario's fixed answer.", eligibility.answers),
        ...errorResponses('eligibility', { 500: EXACT.MOCK_NOT_FOUND.body, 502: EXACT.MOCK_ELIGIBILITY_ERROR.body }),
      },
    },
    cob: {
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, { $ref: '#/components/parameters/XRequestId' }],
      requestBody: requestBody('CobRequest', cob.requests),
      responses: {
        '200': ok('CobResponse', 'The COB code and the plans found.', cob.answers),
        ...errorResponses('cob', { 500: EXACT.MOCK_NOT_FOUND.body, 502: EXACT.MOCK_COB_ERROR.body }),
      },
    },
    letter: {
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }, { $ref: '#/components/parameters/XRequestId' }],
      requestBody: requestBody('LetterRequest', { markdown: { summary: 'Markdown letter from the sample notes', value: letterExample() } }),
      responses: { '200': ok('LetterResponse', 'The letter (markdown or PDF) and what it was built from.'), ...errorResponses('letter', {}) },
    },
    fhir: fhirOperation(live, header, ref('FhirBundleRequest')),
    health: {
      security: [],
      parameters: [{ $ref: '#/components/parameters/XRequestId' }],
      responses: {
        '200': ok('HealthResponse', 'The service is up.', { ok: { value: { status: 'ok', version: SERVICE_VERSION } } }),
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
    openapi: publicDocument('The OpenAPI 3.1 document.', 'application/json', { type: 'object', description: 'An OpenAPI 3.1 document.' }),
    docs: publicDocument('The reference page.', 'text/html', { type: 'string' }),
    docsScript: publicDocument('The script.', 'text/javascript', { type: 'string' }),
  };

  const paths: Json = {};
  for (const route of ROUTE_TABLE) {
    const meta = SUMMARIES[operationOf(route)];
    paths[route.path] ??= {};
    const item = paths[route.path] as Json;
    const pathParameters = PATH_PARAMETERS[route.path] ?? BATCH_PATH_PARAMETERS[route.path] ?? COVERAGE_PATH_PARAMETERS[route.path] ?? [];
    const own = operations[operationOf(route)] as Json;
    const parameters = [...pathParameters, ...((own.parameters as unknown[]) ?? [])];
    const operation = { operationId: meta.operationId, tags: [meta.tag], summary: meta.summary, description: meta.description, ...own, parameters };
    item[route.method.toLowerCase()] = route.method === 'HEAD' ? headOperation(operation) : operation;
    item.options ??= {
      operationId: `${meta.operationId}Preflight`,
      tags: ['CORS'],
      summary: 'CORS preflight',
      description: 'Answered only when the deployment sets CORS_ALLOWED_ORIGINS; otherwise 405. No authentication.',
      security: [],
      parameters: [
        ...pathParameters,
        { name: 'Origin', in: 'header', required: true, schema: { type: 'string' }, example: 'https://app.example.org' },
        { name: 'Access-Control-Request-Method', in: 'header', required: true, schema: { type: 'string' }, example: route.method },
      ],
      responses: {
        '204': {
          description: 'For an allowed origin, the CORS headers; for any other origin, none (the browser then refuses the call).',
          headers: {
            'Access-Control-Allow-Origin': { schema: { type: 'string' }, description: 'The allowed origin, echoed.' },
            'Access-Control-Allow-Methods': { schema: { type: 'string' }, example: `${route.method}, OPTIONS` },
            'Access-Control-Allow-Headers': { schema: { type: 'string' }, example: CORS_ALLOW_HEADERS },
            'Access-Control-Max-Age': { schema: { type: 'string' }, example: '600' },
          },
        },
        '405': { $ref: '#/components/responses/MethodNotAllowed' },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Eligibility, COB and Letter of Medical Necessity API',
      version: SERVICE_VERSION,
      summary: 'Insurance eligibility (X12 270/271), coordination of benefits and Letters of Medical Necessity.',
      description: [
        'Every route except health, this document and CORS preflights needs `Authorization: Bearer <token>`; every POST needs `Content-Type: application/json` (the batch route also takes `text/csv`).',
        '',
        'Every error body is JSON with a `message`; besides the exact bodies (401, 403, 429 and the mock scenarios) it carries `code` and `requestId`. A known path called with another method answers 405 `METHOD_NOT_ALLOWED` with an `Allow` header; an unknown path answers 404 `NOT_FOUND`.',
        '',
        'Every response carries `x-request-id` (your own `X-Request-Id` when it is 1–128 of `[A-Za-z0-9._:-]`) and `Cache-Control: no-store`. Every POST but `/api/mcp` accepts an `Idempotency-Key`.',
        '',
        'Interactive reference: `GET /api/docs` on any server of this API. Guide: docs/api.md in the repository.',
      ].join('\n'),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'npm start (local server with sandboxes)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
        description: "AWS (the stack's ApiUrl output)",
        variables: { apiId: { default: 'abc123defg' }, region: { default: 'us-east-1' }, stage: { default: 'prod' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Eligibility', description: 'Real-time eligibility and benefits (X12 270/271).' },
      { name: 'Coordination of benefits', description: 'Other coverage and which plan pays first.' },
      { name: 'Letters', description: 'Letters of Medical Necessity from procedure notes.' },
      { name: 'FHIR', description: 'The eligibility check as a FHIR R4 operation (application/fhir+json).' },
      BATCH_TAG,
      COVERAGE_TAG,
      ...PAYER_TAGS,
      { name: 'Service', description: 'Health, this document and its interactive reference (`/api/docs`); no authentication.' },
      { name: 'CORS', description: 'Browser preflights, when CORS_ALLOWED_ORIGINS is set.' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A client token (`npm run admin -- token create`); locally `local-dev-token`.' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Repeat a POST safely: within 24 h the same key, client and body replays the stored answer (header Idempotent-Replayed: true, no upstream call); another body → 422 IDEMPOTENCY_KEY_REUSED; while the first still runs → 409 REQUEST_IN_PROGRESS.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
          example: '7f1c9a52-checkout-42',
        },
        XRequestId: {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: 'Your own request id, echoed in x-request-id and used in our logs, when it is 1–128 of [A-Za-z0-9._:-]; anything else is ignored.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
          example: REQUEST_ID,
        },
      },
      headers: {
        XRequestId: { description: 'The request id (yours when valid, else ours).', schema: { type: 'string' } },
        CacheControl: { description: 'Always no-store.', schema: { type: 'string', const: 'no-store' } },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
        IdempotentReplayed: {
          description: '"true" when this is a stored answer replayed for a repeated Idempotency-Key.',
          schema: { type: 'string', const: 'true' },
        },
        Allow: { description: 'The methods this path accepts.', schema: { type: 'string' } },
      },
      responses: {
        Unauthorized: {
          description: 'No Authorization header. The body is exactly {"message":"Unauthorized"}.',
          headers: { 'x-request-id': header('XRequestId') },
          content: { 'application/json': { schema: ref('MessageOnly'), example: EXACT.UNAUTHORIZED.body } },
        },
        TooManyRequests: {
          description: 'Over your rate limit or quota (usage plan). The body is {"message":"Too Many Requests"} or {"message":"Limit Exceeded"}.',
          headers: { 'x-request-id': header('XRequestId'), 'Retry-After': header('RetryAfter') },
          content: { 'application/json': { schema: ref('MessageOnly'), example: { message: 'Too Many Requests' } } },
        },
        MethodNotAllowed: {
          description: 'METHOD_NOT_ALLOWED: the path exists but not with this method; Allow lists the ones it accepts.',
          headers: { 'x-request-id': header('XRequestId'), Allow: header('Allow') },
          content: {
            'application/json': {
              schema: errorSchemaFor(['METHOD_NOT_ALLOWED']),
              example: { message: '/api/eligibility/v1 accepts only POST', code: 'METHOD_NOT_ALLOWED', requestId: REQUEST_ID },
            },
          },
        },
      },
      schemas,
    },
  };
}
