import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { serviceError } from '../errors/index.js';
import type { ApiEvent } from '../http/api-handler.js';
import { corsHeaders, corsPolicy } from '../http/cors.js';
import { lowerCaseHeaders } from '../http/headers.js';
import { readJsonBody } from '../http/json-body.js';
import { requestIdFor } from '../http/request-id.js';
import { errorResponse, NO_STORE, type HttpResponse } from '../http/response.js';
import { describeException, inRequestScope, log, withRequestKeys } from '../logging/index.js';
import { mcpServer } from './server.js';
import type { McpTool } from './tools.js';

/**
 * POST /api/mcp (docs/mcp.md): the SDK's Streamable HTTP transport in stateless mode with JSON
 * answers (no session id, no SSE stream), behind the same authorizer as every route. The body is
 * read by the API's own strict JSON reader first, so a non-JSON Content-Type or body gets the API's
 * 415 / 400 error bodies; JSON-RPC errors (unknown method, bad params) are the SDK's.
 */

/** Headers of the MCP exchange the transport reads; nothing else is handed on. */
const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'last-event-id'];

export function mcpHandler(tools: readonly McpTool[]) {
  return (event: ApiEvent): Promise<HttpResponse> =>
    inRequestScope(async () => {
      const startedAt = performance.now();
      const requestId = requestIdFor(event?.headers, event?.requestContext?.requestId);
      withRequestKeys(requestId);
      const headers = lowerCaseHeaders(event?.headers);
      let response: HttpResponse;
      try {
        response = await answer(tools, event, headers, requestId);
      } catch (error) {
        log.error('unhandled exception', { route: 'mcp', ...describeException(error) });
        response = errorResponse(serviceError('INTERNAL_ERROR'), requestId);
      }
      const cors = corsHeaders(corsPolicy(), headers);
      if (Object.keys(cors).length > 0) response.headers = { ...response.headers, ...cors };
      log.info('request', { route: 'mcp', status: response.statusCode, latencyMs: Math.round((performance.now() - startedAt) * 100) / 100 });
      return response;
    });
}

async function answer(tools: readonly McpTool[], event: ApiEvent, headers: Record<string, string>, requestId: string): Promise<HttpResponse> {
  const clientId = event?.requestContext?.authorizer?.clientId;
  if (!clientId) throw new Error('route reached without an authorizer context');
  const body = readJsonBody(event);
  if (!body.ok) return errorResponse(body.error, requestId);

  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = mcpServer(tools, { clientId, requestId });
  try {
    await server.connect(transport);
    const passed = Object.fromEntries(PASSED_HEADERS.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])));
    const request = new Request('http://localhost/api/mcp', { method: 'POST', headers: passed, body: JSON.stringify(body.value) });
    const reply = await transport.handleRequest(request, { parsedBody: body.value });
    const text = await reply.text();
    const replyHeaders: Record<string, string> = {};
    reply.headers.forEach((value, name) => {
      replyHeaders[name] = value;
    });
    return { statusCode: reply.status, headers: { ...replyHeaders, ...NO_STORE, 'x-request-id': requestId }, body: text };
  } finally {
    await server.close();
  }
}
