import { publicHandler } from '../../lib/http/index.js';
import openapi from '../../openapi.json' with { type: 'json' };

/** GET /api/openapi.json: the committed OpenAPI document (`npm run openapi` regenerates it). */
export const handler = publicHandler('openapi', () => ({ status: 200, body: openapi }));
