import { queryHandler } from '../../lib/http/query-handler.js';
import { payerLookupRoute, payerSearchRoute } from '../../lib/payers/route.js';
import { runtimeFromEnv } from '../../lib/runtime/index.js';

const runtime = runtimeFromEnv();
const directory = runtime.payers;
const search = payerSearchRoute(directory);
const lookup = payerLookupRoute(directory);

/** GET /api/payers and GET /api/payers/{payerId} (docs/api.md#payer-directory); the directory is cached per container. */
export const handler = queryHandler('payers', ({ query, pathParameters }) =>
  pathParameters.payerId === undefined ? search(query) : lookup(pathParameters.payerId),
);
