import { LETTER_BUDGET_MS } from '../config/index.js';

/**
 * The service's Lambda functions, one row each: the routes it answers, its memory and timeout, and
 * whether its answer is streamed. The one list: the route table (./routes.ts) is its routes, the
 * CDK stack (infra/deploy/functions.ts) deploys and sizes its rows, the local server and
 * `npm run invoke` load and time them (infra/dev/local/routes.ts). Each function's code is
 * `functions/<name>/index.ts` exporting `handler` (functionEntry). docs/deployment.md#functions
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'DELETE';

/** One method and path a function answers. */
export interface FunctionRoute {
  method: HttpMethod;
  path: string;
  /** Whether the bearer-token authorizer guards it. */
  auth: boolean;
  /** The route's operation in the OpenAPI document, when its function answers more than one route. */
  operation?: 'docsScript' | 'lookup' | 'batchStatus' | 'batchItems' | 'batchCancel' | 'discoveryStatus';
}

export interface FunctionRow {
  /** The API routes it answers, in the route table's order (none: the authorizer, the queue consumers, the catch-all). */
  routes: readonly FunctionRoute[];
  /** Memory also buys CPU, which shortens cold starts. */
  memoryMiB: number;
  timeoutSeconds: number;
  /** Its answer is streamed (`awslambda.streamifyResponse`), and so is the gateway's integration. */
  streaming: boolean;
  /** How long the gateway waits for a streamed answer, when longer than its default. */
  integrationTimeoutSeconds?: number;
}

/** The letter's budget for the model (one retry inside it); the gateway streams, so it may pass 29 s. */
export const LETTER_BUDGET_SECONDS = LETTER_BUDGET_MS / 1000;
/** 125 s: the letter's budget plus time to write the answer. */
const LETTER_TIMEOUT_SECONDS = LETTER_BUDGET_SECONDS + 5;

const post = (path: string): FunctionRoute => ({ method: 'POST', path, auth: true });

/**
 * Row order is the route table's order (the OpenAPI document lists paths in it), then the functions
 * without routes.
 */
export const FUNCTION_TABLE = {
  // Builds a 270 and parses a 271 (small strings); 512 MiB is for CPU during SDK-heavy cold starts.
  // 29 s: the upstream budget is 25 s and the buffered REST integration cuts the request at 29 s.
  eligibility: { routes: [post('/api/eligibility/v1')], memoryMiB: 512, timeoutSeconds: 29, streaming: false },
  cob: { routes: [post('/api/eligibility/cob/v1')], memoryMiB: 512, timeoutSeconds: 29, streaming: false },
  // Holds a PDF of up to 4 MiB (base64 + decoded), loads pdf-lib with fontkit and subsets four
  // DejaVu faces (~2.5 MB of TTF); 1536 MiB avoids GC pressure and gives ~1 vCPU for layout.
  // Streamed (docs/runtime.md#streamed-letter): the gateway's 29 s cut does not apply, and the
  // streamed integration waits 5 s longer than the function may run.
  letter: {
    routes: [post('/api/generate-letter')],
    memoryMiB: 1536,
    timeoutSeconds: LETTER_TIMEOUT_SECONDS,
    streaming: true,
    integrationTimeoutSeconds: LETTER_TIMEOUT_SECONDS + 5,
  },
  // The eligibility check behind a FHIR Bundle in and out (docs/fhir.md): the same sizing.
  fhir: { routes: [post('/api/fhir/r4/CoverageEligibilityRequest/$submit')], memoryMiB: 512, timeoutSeconds: 29, streaming: false },
  // Insurance discovery (docs/finding-coverage.md): one upstream discovery call, or one result poll, then
  // up to 10 eligibility checks side by side (one per coverage found) inside the 25 s budget each.
  discovery: {
    routes: [
      post('/api/insurance-discovery/v1'),
      { method: 'GET', path: '/api/insurance-discovery/v1/{discoveryId}', auth: true, operation: 'discoveryStatus' },
    ],
    memoryMiB: 512,
    timeoutSeconds: 29,
    streaming: false,
  },
  // The Medicare number lookup (docs/finding-coverage.md#medicare-number): one 270/271 exchange, sized like eligibility.
  medicare: { routes: [post('/api/medicare/mbi/v1')], memoryMiB: 512, timeoutSeconds: 29, streaming: false },
  // The batch routes (docs/batch.md): submit validates up to 10,000 bodies and writes them with
  // their queue messages (a 10,000-item submit does ~400 table writes and ~1,000 queue sends).
  // Streamed: a whole batch's results CSV is sent as it is read (docs/batch.md#results-as-csv).
  batch: {
    routes: [
      post('/api/eligibility/batch/v1'),
      { method: 'GET', path: '/api/eligibility/batch/v1/{batchId}', auth: true, operation: 'batchStatus' },
      { method: 'DELETE', path: '/api/eligibility/batch/v1/{batchId}', auth: true, operation: 'batchCancel' },
      { method: 'GET', path: '/api/eligibility/batch/v1/{batchId}/items', auth: true, operation: 'batchItems' },
    ],
    memoryMiB: 1024,
    timeoutSeconds: 29,
    streaming: true,
  },
  // Payer directory search: one small upstream GET, cached per container for an hour.
  payers: {
    routes: [
      { method: 'GET', path: '/api/payers', auth: true },
      { method: 'GET', path: '/api/payers/{payerId}', auth: true, operation: 'lookup' },
    ],
    memoryMiB: 256,
    timeoutSeconds: 10,
    streaming: false,
  },
  // MCP tools run the eligibility, COB and payer routes in process: sized and timed like eligibility.
  mcp: { routes: [post('/api/mcp')], memoryMiB: 512, timeoutSeconds: 29, streaming: false },
  // The unauthenticated GET routes: a fixed status document (uptime monitors probe with HEAD: the
  // same status and headers as GET, no body), and the OpenAPI document bundled in.
  health: {
    routes: [
      { method: 'GET', path: '/api/health', auth: false },
      { method: 'HEAD', path: '/api/health', auth: false },
    ],
    memoryMiB: 256,
    timeoutSeconds: 5,
    streaming: false,
  },
  openapi: { routes: [{ method: 'GET', path: '/api/openapi.json', auth: false }], memoryMiB: 256, timeoutSeconds: 5, streaming: false },
  // The interactive API reference of the OpenAPI document (docs/api.md#api-reference) and the 3.6 MB
  // Scalar script it loads (read from assets/ beside the bundle).
  docs: {
    routes: [
      { method: 'GET', path: '/api/docs', auth: false },
      { method: 'GET', path: '/api/docs/scalar.js', auth: false, operation: 'docsScript' },
    ],
    memoryMiB: 256,
    timeoutSeconds: 5,
    streaming: false,
  },
  // Hashes a token and reads one small secret; 256 MiB keeps the cold start short at minimal cost.
  // 5 s: API Gateway waits at most 10 s for an authorizer, and a slow token store must fail fast.
  authorizer: { routes: [], memoryMiB: 256, timeoutSeconds: 5, streaming: false },
  // One item at a time through the eligibility route, up to 10 per invocation one after the other:
  // 10 × the 25 s upstream budget in the worst case, plus the table writes.
  'batch-worker': { routes: [], memoryMiB: 512, timeoutSeconds: 300, streaming: false },
  // One record per invocation: one signed POST with a 10 s total deadline, plus reading the token
  // secret and the batch and changing the message's visibility (docs/batch.md#webhook).
  'batch-webhook': { routes: [], memoryMiB: 256, timeoutSeconds: 15, streaming: false },
  // Unknown paths (404), wrong methods on known paths (405 + Allow) and CORS preflight: formats a
  // small answer and touches nothing else.
  'not-found': { routes: [], memoryMiB: 256, timeoutSeconds: 5, streaming: false },
} as const satisfies Record<string, FunctionRow>;

export type FunctionName = keyof typeof FUNCTION_TABLE;
export const FUNCTION_NAMES = Object.keys(FUNCTION_TABLE) as FunctionName[];

/** A function that answers API routes. */
export type RouteFunction = { [K in FunctionName]: (typeof FUNCTION_TABLE)[K]['routes'] extends readonly [] ? never : K }[FunctionName];

/** Where a function's code is, from the repository's root: `functions/<name>/index.ts`, exporting `handler`. */
export const functionEntry = (name: FunctionName): string => `functions/${name}/index.ts`;
