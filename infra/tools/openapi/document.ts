import { readFileSync } from 'node:fs';
import { mockCob } from '../../../lib/cob/mock.js';
import { mockEligibility } from '../../../lib/eligibility/mock.js';
import { ERROR_TABLE, EXACT, type ErrorCode } from '../../../lib/errors/index.js';
import { CORS_ALLOW_HEADERS } from '../../../lib/http/cors.js';
import { operationOf, ROUTE_TABLE, type RouteOperation } from '../../../lib/http/routes.js';
import { MOCK_PATIENTS } from '../../../lib/mock/patients.js';
import { FORMATS } from '../../../lib/validation/formats.js';
import { patternRule, validateBody } from '../../../lib/validation/index.js';
import { FHIR_SUMMARY, fhirOperation } from './fhir.js';
import { UPPER_CASED_LISTS } from '../../../lib/validation/letter-case.js';
import { RESPONSE_SCHEMAS } from './responses.js';
import { SCHEMAS } from '../../../lib/validation/schemas.js';
import { SERVICE_VERSION } from '../../../lib/config/version.js';
import { COB_SANDBOX_PATIENTS } from '../../dev/sandbox/cob-answers.js';
import { SANDBOX_PATIENTS } from '../../dev/sandbox/patients.js';
import { SANDBOX_COB_REQUESTS, SANDBOX_ELIGIBILITY_REQUESTS, type SandboxExamples } from './sandbox-examples.js';
import { PATH_PARAMETERS, PAYER_SUMMARIES, PAYER_TAGS, payerAndMcpOperations } from './payers-mcp.js';
import { BATCH_PATH_PARAMETERS, BATCH_SCHEMAS, BATCH_SUMMARIES, BATCH_TAG, batchOperations } from './batch.js';
import { payerFromStedi } from '../../../lib/payers/from-stedi.js';
import { readPayerRecord } from '../../../lib/upstream/stedi-payers.js';

/**
 * The OpenAPI 3.1 document, built from the route table, the request JSON Schemas the validator
 * uses, the response schemas and the error table: nothing here restates a field. `npm run
 * openapi` writes it to openapi.json; test/openapi/document.test.ts fails when that file is stale.
 * Examples come from the mock sets (answers computed by the mock code itself) and the sandbox
 * test patients (real answers computed by the production code against the sandbox clearinghouse).
 */

type Json = Record<string, unknown>;

// ---- schemas → components ------------------------------------------------------------------

/** Message openings → the start of a description ("must be a real date…" → "A real date…"). */
const OPENINGS: Array<[RegExp, string]> = [
  [/^must not be /, 'Not '],
  [/^must be /, ''],
  [/^must not contain /, 'Contains no '],
  [/^must contain /, 'Contains '],
];

/** "must be a real calendar date…" → "A real calendar date…." */
function sentence(message: string): string {
  const [opening, replacement] = OPENINGS.find(([re]) => re.test(message)) ?? [/^/, ''];
  return `${message.replace(opening, replacement)}.`.replace(/^./, (c) => c.toUpperCase());
}

/**
 * Rewrites a validator schema for the document: drops `$id`, describes custom formats in words,
 * and replaces every sub-schema that is a named component (same object, matched by identity) by a `$ref`.
 */
function documentSchema(schema: unknown, components: Map<unknown, string>, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => documentSchema(item, components, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const named = components.get(schema);
  if (named && !root) return { $ref: `#/components/schemas/${named}` };
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id') continue;
    if (key === 'properties' || key === 'dependentRequired' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, sub]) => [name, key === 'dependentRequired' ? sub : documentSchema(sub, components, false)]),
      );
    } else {
      out[key] = typeof value === 'object' ? documentSchema(value, components, false) : value;
    }
  }
  // A custom format is described in words; every constraint the validator holds is in the schema
  // itself, so the document adds none of its own (test/openapi/validators.test.ts compares them).
  const { format, pattern } = schema as Json;
  const formatRule = typeof format === 'string' && FORMATS[format] ? sentence(FORMATS[format].message) : undefined;
  const patternText = typeof pattern === 'string' ? patternRule(pattern) : undefined;
  const patternSentence = patternText ? sentence(patternText) : undefined;
  const rules = [formatRule, patternSentence && !formatRule?.startsWith(patternSentence.slice(0, -1)) ? patternSentence : undefined].filter(Boolean);
  if (rules.length > 0) out.description ??= rules.join(' ');
  return out;
}

/** Every object schema with a `title` becomes a component (first seen wins; titles are unique). */
function collectComponents(roots: Record<string, unknown>): Map<unknown, string> {
  const components = new Map<unknown, string>();
  const seen = new Set<unknown>();
  const walk = (schema: unknown, name?: string) => {
    if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
    seen.add(schema);
    const title = name ?? (schema as Json).title;
    if (typeof title === 'string' && !Array.isArray(schema)) {
      if ([...components.values()].includes(title)) throw new Error(`two different schemas are titled ${title}`);
      components.set(schema, title);
    }
    for (const value of Object.values(schema)) walk(value);
  };
  for (const [name, schema] of Object.entries(roots)) walk(schema, name);
  return components;
}

// ---- errors --------------------------------------------------------------------------------

const ERRORS_BY_ROUTE: Record<'eligibility' | 'cob' | 'letter' | 'payers' | 'mcp' | 'batch' | 'batch-read', ErrorCode[]> = {
  eligibility: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PROVIDER_NOT_ENROLLED',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'PAYER_REJECTED',
    'PAYER_NOT_SUPPORTED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'PAYER_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
  cob: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PROVIDER_NOT_ENROLLED',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'PAYER_REJECTED',
    'UNSUPPORTED_PAYER',
    'PAYER_NOT_SUPPORTED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'PAYER_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
  payers: ['INVALID_REQUEST', 'NOT_FOUND', 'CONFIGURATION_ERROR', 'INTERNAL_ERROR', 'UPSTREAM_ERROR', 'PAYER_UNAVAILABLE', 'UPSTREAM_TIMEOUT'],
  mcp: ['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR'],
  batch: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'BATCH_LIMIT_EXCEEDED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
  ],
  'batch-read': ['INVALID_REQUEST', 'NOT_FOUND', 'INTERNAL_ERROR'],
  letter: [
    'INVALID_JSON',
    'INVALID_REQUEST',
    'INVALID_FILE',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'IDEMPOTENCY_KEY_REUSED',
    'REQUEST_IN_PROGRESS',
    'LETTER_NOT_GENERATED',
    'CONFIGURATION_ERROR',
    'INTERNAL_ERROR',
    'UPSTREAM_ERROR',
    'AI_UNAVAILABLE',
    'UPSTREAM_TIMEOUT',
  ],
};

/** When each code happens, for the response descriptions (the message is the default text). */
const ERROR_WHEN: Partial<Record<ErrorCode, string>> = {
  INVALID_JSON: 'the body is not JSON, not an object, not valid UTF-8, or repeats a key',
  INVALID_REQUEST: 'the body breaks the schema (missing, wrong type, bad format, unknown field); every problem is in `errors`',
  INVALID_FILE: 'file_content is not base64 of a readable, unencrypted PDF',
  PROVIDER_NOT_ENROLLED: "the provider is not actively enrolled for this client (and payer); same body whether unknown or another client's",
  PAYLOAD_TOO_LARGE: 'the file is over 4 MiB decoded, over 100 pages or would decompress past 64 MiB; or the request is over 6 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type is not application/json',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used before with a different body',
  REQUEST_IN_PROGRESS: 'a request with the same Idempotency-Key is still running (see Retry-After)',
  PAYER_REJECTED: 'the payer rejected the request (an AAA other than 42/79/80); the reasons are in `rejections`',
  UNSUPPORTED_PAYER: 'the payer cannot answer this check (Medicare on the COB route)',
  PAYER_NOT_SUPPORTED: 'the payer directory lists the payer as not supporting this transaction (refused before any charge; see GET /api/payers)',
  LETTER_NOT_GENERATED: 'the AI refused or produced an unusable letter',
  CONFIGURATION_ERROR: 'upstream credentials are missing or rejected (never echoes a secret)',
  INTERNAL_ERROR: 'anything unexpected; message "Internal server error"',
  UPSTREAM_ERROR: 'the upstream answer was unreadable (999, broken 271, bad JSON) or AAA 79',
  PAYER_UNAVAILABLE: 'the payer or clearinghouse is unavailable (AAA 42/80, HTTP 429/5xx after the retry); see Retry-After',
  AI_UNAVAILABLE: 'the AI is rate-limited or overloaded after the retry; see Retry-After',
  UPSTREAM_TIMEOUT: 'the upstream did not answer within the time budget',
  NOT_FOUND: 'no route has this path (GET /api/payers/{payerId}: no payer has this id; a batch route: no batch of yours has this id)',
  BATCH_LIMIT_EXCEEDED: 'your unfinished batch items would pass BATCH_MAX_PENDING_ITEMS (default 20,000); see Retry-After',
  METHOD_NOT_ALLOWED: 'the path exists but not with this method (see the Allow header)',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const errorSchemaFor = (codes: ErrorCode[]) => ({ allOf: [ref('Error'), { type: 'object', properties: { code: { enum: codes } } }] });

/** A request id and Retry-After example that a reader recognises. */
const REQUEST_ID = 'abc-123';

function errorExample(code: ErrorCode): Json {
  const body: Json = { message: ERROR_TABLE[code].message, code, requestId: REQUEST_ID };
  if (code === 'INVALID_REQUEST') {
    // What the validator really answers for a typo'd flag and an impossible date.
    const invalid = validateBody('eligibility', { ...MOCK_PATIENTS[0], patientDOB: '02-30-1980', runCOBCheck: true });
    if (!invalid.ok) Object.assign(body, { message: invalid.error.message, errors: invalid.error.errors });
  }
  if (code === 'PAYER_REJECTED') {
    body.rejections = [{ code: '75', description: 'Subscriber/Insured Not Found', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' }];
  }
  return body;
}

/** The responses an authenticated POST route can give besides its 200. */
function errorResponses(route: keyof typeof ERRORS_BY_ROUTE, exact: Record<number, Json>): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERRORS_BY_ROUTE[route]) {
    const status = ERROR_TABLE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Json = {
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
  };
  for (const status of [...new Set([...byStatus.keys(), 403, ...Object.keys(exact).map(Number)])].sort((a, b) => a - b)) {
    const codes = byStatus.get(status) ?? [];
    const lines = codes.map((code) => `- \`${code}\`: ${ERROR_WHEN[code] ?? ERROR_TABLE[code].message}`);
    const examples: Json = Object.fromEntries(codes.map((code) => [code, { value: errorExample(code) }]));
    const alternatives: unknown[] = codes.length > 0 ? [errorSchemaFor(codes)] : [];
    if (status === 403) {
      lines.unshift('- body exactly `{"message":"Forbidden"}`: the token is unknown or malformed');
      examples.Forbidden = { value: EXACT.FORBIDDEN.body };
      alternatives.push(ref('MessageOnly'));
    }
    if (exact[status]) {
      lines.push(`- body exactly \`${JSON.stringify(exact[status])}\`: mock mode (see the examples)`);
      examples.Mock = { value: exact[status] };
      if (!alternatives.some((a) => JSON.stringify(a) === JSON.stringify(ref('MessageOnly')))) alternatives.push(ref('MessageOnly'));
    }
    if (status === 429) {
      // The gateway's own 429 (usage plan) shares the status with BATCH_LIMIT_EXCEEDED.
      lines.unshift('- body `{"message":"Too Many Requests"}` or `{"message":"Limit Exceeded"}`: over your rate limit or quota (usage plan)');
      examples.Gateway = { value: { message: 'Too Many Requests' } };
      alternatives.push(ref('MessageOnly'));
    }
    const retry = codes.some((code) => ERROR_TABLE[code].status === 503 || ERROR_TABLE[code].status === 429 || code === 'REQUEST_IN_PROGRESS');
    responses[String(status)] = {
      description: lines.join('\n'),
      headers: { 'x-request-id': header('XRequestId'), 'Cache-Control': header('CacheControl'), ...(retry ? { 'Retry-After': header('RetryAfter') } : {}) },
      content: { 'application/json': { schema: alternatives.length === 1 ? alternatives[0] : { oneOf: alternatives }, examples } },
    };
  }
  return responses;
}

// ---- examples ------------------------------------------------------------------------------

const mockRequest = (index: number, extra: Json = {}) => ({ ...MOCK_PATIENTS[index], mockRequest: true, ...extra });

function eligibilityExamples(live: SandboxExamples) {
  const requests: Json = { ...SANDBOX_ELIGIBILITY_REQUESTS };
  const answers: Json = { ...live.eligibility };
  MOCK_PATIENTS.forEach((_patient, index) => {
    const set = index + 1;
    requests[`mock${set}`] = { summary: `Mock set ${set}`, value: mockRequest(index) };
    const answer = mockEligibility(mockRequest(index));
    if (answer.ok) answers[`mock${set}`] = { summary: `Mock set ${set}`, value: answer.body };
  });
  requests.mock1WithCob = { summary: 'Mock set 1 with the COB check', value: mockRequest(0, { runCobCheck: true }) };
  const withCob = mockEligibility(mockRequest(1, { runCobCheck: true }));
  if (withCob.ok) answers.mock2WithCob = { summary: 'Mock set 2 with runCobCheck', value: withCob.body };
  const estimate = {
    lines: [
      { serviceTypeCode: '30', amount: 1000 },
      { procedureCode: '99213', serviceTypeCode: '98', amount: 180 },
    ],
  };
  requests.mock2WithEstimate = { summary: 'Mock set 2 with an estimate (a guide: the payer adjudicates the claim)', value: mockRequest(1, { estimate }) };
  const withEstimate = mockEligibility(mockRequest(1, { estimate }));
  if (withEstimate.ok) answers.mock2WithEstimate = { summary: 'Mock set 2 with an estimate', value: withEstimate.body };
  for (const patient of SANDBOX_PATIENTS.filter((p) => !p.fault).slice(0, 6)) {
    requests[`sandbox${patient.lastName}`] = {
      summary: `Sandbox: ${patient.firstName} ${patient.lastName}`,
      description: patient.scenario,
      value: {
        patientFirstName: patient.firstName,
        patientLastName: patient.lastName,
        patientDOB: patient.dob,
        patientMemberId: patient.memberId,
        dateOfCoverage: '03-01-2025',
        payerId: patient.payerId,
        providerId: 'PROVIDER-SANDBOX-1',
      },
    };
  }
  return { requests, answers };
}

function cobExamples(live: SandboxExamples) {
  const requests: Json = { ...SANDBOX_COB_REQUESTS };
  const answers: Json = { ...live.cob };
  MOCK_PATIENTS.forEach((patient, index) => {
    const set = index + 1;
    const value = {
      patientFirstName: patient.patientFirstName,
      patientLastName: patient.patientLastName,
      dateOfCoverage: patient.dateOfCoverage,
      payerId: patient.payerId,
      providerId: patient.providerId,
      mockRequest: true,
    };
    requests[`mock${set}`] = { summary: `Mock set ${set}`, value };
    const answer = mockCob(value);
    if (answer.ok) answers[`mock${set}`] = { summary: `Mock set ${set}`, value: answer.body };
  });
  for (const patient of COB_SANDBOX_PATIENTS.slice(0, 8)) {
    const value: Json = {
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      patientDOB: patient.dateOfBirth,
      patientMemberId: patient.memberId,
      dateOfCoverage: '03-01-2025',
      payerId: patient.payerId,
      providerId: 'PROVIDER-SANDBOX-1',
    };
    if (patient.dependent)
      Object.assign(value, {
        dependentFirstName: patient.dependent.firstName,
        dependentLastName: patient.dependent.lastName,
        dependentDOB: patient.dependent.dateOfBirth,
      });
    requests[`sandbox${patient.lastName.replace(/[^A-Za-z]/g, '')}`] = {
      summary: `Sandbox: ${patient.firstName} ${patient.lastName}`,
      description: patient.note,
      value,
    };
  }
  return { requests, answers };
}

/** The small procedure-notes PDF of events/letter-text.json. */
function letterExample(): Json {
  const event = JSON.parse(readFileSync(new URL('../../../events/letter-text.json', import.meta.url), 'utf8')) as { body: string };
  const body = JSON.parse(event.body) as Json;
  return {
    ...body,
    patient_name: 'Maria Garcia',
    patient_identifier: 'PT-000123',
  };
}

// ---- the document --------------------------------------------------------------------------

const SUMMARIES: Record<RouteOperation, { summary: string; description: string; tag: string; operationId: string }> = {
  eligibility: {
    operationId: 'checkEligibility',
    tag: 'Eligibility',
    summary: 'Check eligibility and benefits',
    description:
      "Sends an X12 270 to the clearinghouse and answers the benefit figures parsed from the payer's 271. `mockRequest: true` answers one of four fixed scenarios instead (no upstream, no charge, no enrollment check). `runCobCheck: true` adds the COB search (`cob`). `estimate` adds what the patient may owe per line (copay, deductible, coinsurance and the out-of-pocket maximum applied in order, to the cent; `N/A` with `missing` where the payer gave no figure): an estimate is a guide, and the payer adjudicates the claim. Needs an active enrollment of `providerId` for your client. See docs/eligibility.md.",
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
  const operations: Record<RouteOperation, Json> = {
    batch: batch.submit,
    batchStatus: batch.status,
    batchItems: batch.items,
    batchCancel: batch.cancel,
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
    const pathParameters = PATH_PARAMETERS[route.path] ?? BATCH_PATH_PARAMETERS[route.path] ?? [];
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
