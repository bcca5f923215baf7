import { batchStatus } from '../../lib/batch/routes.js';
import { batchStoreFromEnv } from '../../lib/batch/adapters/table-from-env.js';
import { cobRoute } from '../../lib/cob/route.js';
import { mbiRoute } from '../../lib/discovery/mbi.js';
import { withDiscoverOnInactive } from '../../lib/discovery/on-inactive.js';
import { discoveryRoute } from '../../lib/discovery/route.js';
import { discoveryStoreFromEnv } from '../../lib/discovery/table-from-env.js';
import { eligibilityRoute } from '../../lib/eligibility/route.js';
import { mcpHandler } from '../../lib/mcp/http.js';
import { mcpTools } from '../../lib/mcp/tools.js';
import { payerSearchRoute } from '../../lib/payers/route.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const batches = batchStoreFromEnv();
const discoveries = discoveryStoreFromEnv();
const discoveryDeps = discoveries ? { runtime, store: discoveries } : undefined;

/** POST /api/mcp (docs/mcp.md): the MCP tools over the same route functions as the REST API. */
export const handler = mcpHandler(
  mcpTools({
    eligibility: withDiscoverOnInactive(discoveryDeps, eligibilityRoute(runtime)),
    cob: cobRoute(runtime),
    searchPayers: payerSearchRoute(runtime.payers),
    mbi: mbiRoute(runtime),
    ...(discoveryDeps ? { discovery: discoveryRoute(discoveryDeps) } : {}),
    ...(batches ? { batchStatus: (clientId: string, batchId: string) => batchStatus({ store: batches }, clientId, batchId) } : {}),
  }),
);
