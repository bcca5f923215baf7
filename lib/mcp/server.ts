import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RouteOutcome } from '../http/index.js';
import { log } from '../logging/index.js';
import { SERVICE_VERSION } from '../config/index.js';
import { errorSummary } from './summary.js';
import type { McpTool, ToolContext } from './tools.js';

/**
 * The MCP server of one request (docs/mcp.md): stateless, so it is built per request with the
 * caller's context and thrown away after. tools/list offers the tools; tools/call runs one and
 * answers the REST answer as structured content plus a plain-English summary, or a tool error
 * carrying the REST error's code and message.
 */

const SERVER_INFO = { name: 'eligibility-service', version: SERVICE_VERSION } as const;

function toolResult(tool: McpTool, outcome: RouteOutcome, requestId: string): CallToolResult {
  if (outcome.ok) {
    const body = outcome.body as Record<string, unknown>;
    return { content: [{ type: 'text', text: tool.summarize(body) }], structuredContent: body };
  }
  const error = outcome.error;
  const body: Record<string, unknown> =
    'code' in error
      ? {
          message: error.message,
          code: error.code,
          requestId,
          ...(error.errors ? { errors: error.errors } : {}),
          ...(error.rejections ? { rejections: error.rejections } : {}),
        }
      : { ...error.body };
  body.status = error.status;
  return { isError: true, content: [{ type: 'text', text: errorSummary(body) }], structuredContent: body };
}

export function mcpServer(tools: readonly McpTool[], context: ToolContext): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: 'Check US health insurance eligibility, benefits and coordination of benefits. Find the payerId with search_payers first.',
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      return { isError: true, content: [{ type: 'text', text: `Unknown tool ${request.params.name}; call tools/list for the tools this server offers.` }] };
    }
    const outcome = await tool.run(request.params.arguments ?? {}, context);
    log.info('mcp tool', {
      route: `mcp/${tool.name}`,
      ...outcome.log,
      ...(outcome.ok ? {} : 'code' in outcome.error ? { code: outcome.error.code, status: outcome.error.status } : { status: outcome.error.status }),
    });
    return toolResult(tool, outcome, context.requestId);
  });
  return server;
}
