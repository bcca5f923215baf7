import { publicHandler } from '../../lib/http/index.js';
import { SERVICE_VERSION } from '../../lib/config/index.js';

/** GET /api/health: no authentication, no upstream call, no patient data (docs/api.md#health). */
export const handler = publicHandler('health', () => ({ status: 200, body: { status: 'ok', version: SERVICE_VERSION } }));
