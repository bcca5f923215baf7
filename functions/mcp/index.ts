import { batchStatus } from '../../lib/batch/routes.js';
import { batchStoreFromEnv } from '../../lib/batch/adapters/table-from-env.js';
import { cardRoute } from '../../lib/card/route.js';
import { cobRoute } from '../../lib/cob/route.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import { mcpHandler } from '../../lib/mcp/http.js';
import { mcpTools } from '../../lib/mcp/tools.js';
import { payerSearchRoute } from '../../lib/payers/route.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const batches = batchStoreFromEnv();

/** POST /api/mcp (docs/mcp.md): the MCP tools over the same route functions as the REST API. */
export const handler = mcpHandler(
  mcpTools({
    eligibility: eligibilityRoute(runtime),
    cob: cobRoute(runtime),
    searchPayers: payerSearchRoute(runtime.payers),
    card: cardRoute(runtime),
    ...(batches ? { batchStatus: (clientId: string, batchId: string) => batchStatus({ store: batches }, clientId, batchId) } : {}),
  }),
);
