import { ServiceFailure, serviceError } from '../errors/index.js';
import { describeException, inRequestScope, log, withRequestKeys, type SafeLogFields } from '../logging/index.js';
import type { ApiEvent, RouteOutcome } from './api-handler.js';
import { corsHeaders, corsPolicy } from './cors.js';
import { lowerCaseHeaders } from './headers.js';
import { requestIdFor } from './request-id.js';
import { errorResponse, jsonResponse, type HttpResponse } from './response.js';

/**
 * The pipeline of the authenticated GET routes (the payer directory): no body; the route reads the
 * query string and path parameters. The same request id, CORS headers, error bodies and one access
 * log line as apiHandler (./api-handler.ts), which serves the POST routes.
 */

export interface QueryRouteInput {
  /** Query-string parameters (the last value of a repeated one). */
  query: Record<string, string>;
  pathParameters: Record<string, string>;
  clientId: string;
  requestId: string;
}

export type QueryRoute = (input: QueryRouteInput) => Promise<RouteOutcome>;

const defined = (map: Record<string, string | undefined> | null | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(map ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

export function queryHandler(routeName: string, route: QueryRoute) {
  return (event: ApiEvent): Promise<HttpResponse> =>
    inRequestScope(async () => {
      const startedAt = performance.now();
      const requestId = requestIdFor(event?.headers, event?.requestContext?.requestId);
      withRequestKeys(requestId);
      const headers = lowerCaseHeaders(event?.headers);
      let response: HttpResponse;
      let fields: SafeLogFields = {};
      try {
        const clientId = event?.requestContext?.authorizer?.clientId;
        if (!clientId) throw new Error('route reached without an authorizer context');
        const outcome = await route({ query: defined(event.queryStringParameters), pathParameters: defined(event.pathParameters), clientId, requestId });
        fields = { ...outcome.log };
        if (outcome.ok) response = jsonResponse(outcome.status ?? 200, outcome.body, requestId);
        else {
          if ('code' in outcome.error) fields.code = outcome.error.code;
          response = errorResponse(outcome.error, requestId);
        }
      } catch (error) {
        const failure = error instanceof ServiceFailure ? error.failure : serviceError('INTERNAL_ERROR');
        if (!(error instanceof ServiceFailure)) log.error('unhandled exception', { route: routeName, ...describeException(error) });
        if ('code' in failure) fields.code = failure.code;
        response = errorResponse(failure, requestId);
      }
      const cors = corsHeaders(corsPolicy(), headers);
      if (Object.keys(cors).length > 0) response.headers = { ...response.headers, ...cors };
      log.info('request', { ...fields, route: routeName, status: response.statusCode, latencyMs: Math.round((performance.now() - startedAt) * 100) / 100 });
      return response;
    });
}
