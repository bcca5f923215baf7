import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'aws-lambda';
import { type ApiEvent, corePipeline, type HttpResponse, jsonBody, NO_STORE } from '../http/index.js';
import { mcpServer } from './server.js';
import type { McpTool } from './tools.js';

/**
 * POST /api/mcp (docs/mcp.md): the SDK's Streamable HTTP transport in stateless mode with JSON
 * answers (no session id, no SSE stream), behind the same authorizer as every route and through the
 * shared pipeline (lib/http/pipeline-core.ts, docs/runtime.md#the-http-pipeline). The pipeline reads the
 * body with the API's own strict JSON reader first, so a non-JSON Content-Type or body gets the API's
 * 415 / 400 error bodies; JSON-RPC errors (unknown method, bad params) are the SDK's. No
 * Idempotency-Key step (docs/mcp.md#transport).
 */

/** Headers of the MCP exchange the transport reads; nothing else is handed on. */
const PASSED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'last-event-id'];

export function mcpHandler(tools: readonly McpTool[]) {
  // The strict JSON body is MCP's one body step: no schema (the tools validate their arguments) and no Idempotency-Key.
  const handler = corePipeline(
    {
      name: 'mcp',
      authorized: true,
      answer: async ({ event, body, clientId, requestId }) => ({
        response: await answer(tools, { headers: event.headers ?? {}, body, clientId: clientId!, requestId }),
      }),
    },
    { steps: [jsonBody()], readsBody: true },
  );
  return handler as (event: ApiEvent, context?: Context) => Promise<HttpResponse>;
}

interface McpExchange {
  /** Lower-cased by the pipeline. */
  headers: Record<string, string | undefined>;
  /** The JSON object the pipeline read. */
  body: unknown;
  clientId: string;
  requestId: string;
}

async function answer(tools: readonly McpTool[], { headers, body, clientId, requestId }: McpExchange): Promise<HttpResponse> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = mcpServer(tools, { clientId, requestId });
  try {
    await server.connect(transport);
    const passed = Object.fromEntries(PASSED_HEADERS.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])));
    const request = new Request('http://localhost/api/mcp', { method: 'POST', headers: passed, body: JSON.stringify(body) });
    const reply = await transport.handleRequest(request, { parsedBody: body });
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
