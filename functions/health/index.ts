import { publicHandler } from '../../lib/http/public-handler.js';
import { SERVICE_VERSION } from '../../lib/config/version.js';

/** GET /api/health: no authentication, no upstream call, no patient data (docs/api.md#health). */
export const handler = publicHandler('health', () => ({ status: 200, body: { status: 'ok', version: SERVICE_VERSION } }));
