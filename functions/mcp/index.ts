import { batchStatus, batchStoreFromEnv } from '../../lib/batch/index.js';
import { cobRoute } from '../../lib/cob/index.js';
import { discoveryRoute, discoveryStoreFromEnv, mbiRoute, withDiscoverOnInactive } from '../../lib/discovery/index.js';
import { eligibilityRoute } from '../../lib/eligibility/index.js';
import { mcpHandler, mcpTools } from '../../lib/mcp/index.js';
import { payerSearchRoute } from '../../lib/payers/index.js';
import { cardRoute } from '../../lib/card/index.js';
import { runtimeFromEnv, withModel } from '../../lib/runtime/index.js';

const runtime = withModel(runtimeFromEnv());
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
    card: cardRoute(runtime),
    ...(batches ? { batchStatus: (clientId: string, batchId: string) => batchStatus({ store: batches }, clientId, batchId) } : {}),
  }),
);
