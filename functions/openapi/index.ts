import { publicHandler } from '../../lib/http/public-handler.js';
import openapi from '../../openapi.json' with { type: 'json' };

/** GET /api/openapi.json: the committed OpenAPI document (`npm run openapi` regenerates it). */
export const handler = publicHandler('openapi', () => ({ status: 200, body: openapi }));
