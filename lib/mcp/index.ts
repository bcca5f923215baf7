/**
 * The MCP server for clinic agents (docs/mcp.md): tools over the same routes as REST, on the shared HTTP
 * pipeline, stateless Streamable HTTP with JSON answers.
 *
 * @example
 * ```ts
 * import { mcpHandler } from '../mcp/index.js';
 * export const handler = mcpHandler(); // POST /api/mcp
 * ```
 */

export { mcpHandler } from './http.js';
export { mcpTools } from './tools.js';
