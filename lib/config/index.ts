/**
 * Configuration (README.md#configuration). The local server and Lambda read the same names; this folder is the
 * one place in lib/ that reads the environment: other modules take an `Env` (default `environment()`) and
 * ask the readers below. Secrets are resolved separately (./secrets.ts); the service's version is ./version.ts.
 *
 * @example
 * ```ts
 * import { readConfig, systemClock } from '../config/index.js';
 * readConfig({ STEDI_BASE_URL: 'http://127.0.0.1:4010' }).stediBaseUrl; // 'http://127.0.0.1:4010'
 * systemClock.now(); // epoch milliseconds
 * ```
 */

export { type Clock, fixedClock, systemClock } from './clock.js';
export {
  type BatchPlaces,
  batchPlaces,
  type Config,
  corsAllowedOrigins,
  DEFAULT_DISCOVERY_MAX_PER_DAY,
  DEFAULT_LETTER_MODEL,
  DEFAULT_STEDI_BASE_URL,
  type Env,
  environment,
  LETTER_BUDGET_MS,
  logSettings,
  readConfig,
  sandboxUpstreams,
  tokensFile,
} from './env.js';
export { SECRETS, TOKEN_STORE_CACHE_SECONDS, readSecret, type SecretSource } from './secrets.js';
export { SERVICE_VERSION } from './version.js';
