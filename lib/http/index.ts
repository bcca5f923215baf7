/**
 * The one HTTP pipeline every route goes through (docs/runtime.md#the-http-pipeline): request ids, CORS,
 * repeated-header and JSON body checks, idempotency, the error table as responses, the route table.
 *
 * @example
 * ```ts
 * import { apiHandler } from '../http/index.js';
 * export const handler = apiHandler('eligibility', (runtime) => eligibilityRoute(runtime));
 * ```
 */

export { apiHandler, type ApiEvent } from './api-handler.js';
export { CORS_ALLOW_HEADERS, corsHeaders, corsPolicy } from './cors.js';
export { DOCS_PAGE, DOCS_PAGE_HEADERS, SCALAR_SCRIPT, scalarScript } from './docs-page.js';
export { frontDoor } from './fallback.js';
export { FUNCTION_NAMES, FUNCTION_TABLE, LETTER_BUDGET_SECONDS, functionEntry, type FunctionName, type FunctionRow } from './functions.js';
export { headerOf, lowerCaseHeaders } from './headers.js';
export { bodyText, isJsonContentType, readJsonBody } from './json-body.js';
export { jsonBody } from './middleware/json-body.js';
export type { HttpEvent } from './middleware/state.js';
export { eventParameters } from './parameters.js';
export { corePipeline } from './pipeline-core.js';
export { httpPipeline, type PipelineHandler } from './pipeline.js';
export { publicHandler } from './public-handler.js';
export { repeatedHeader } from './repeated-headers.js';
export { requestIdFor } from './request-id.js';
export { NO_STORE, errorResponse, type ErrorBody, type HttpResponse } from './response.js';
export { answerOf, type Route, type RouteInput, type RouteOutcome } from './route-outcome.js';
export { ROUTE_TABLE, operationOf, pathParametersOf, type RouteOperation } from './routes.js';
export { streamingHandler, type ChunkedHttpResponse } from './stream.js';
export { parseStrictJson } from './strict-json.js';

export type { Render } from './pipeline-core.js';
