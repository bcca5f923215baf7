/**
 * The four fixed mock patients (docs/api.md#mock-mode): mock requests reach no payer and cost nothing.
 *
 * @example
 * ```ts
 * import { matchMockScenario, MOCK_PATIENTS } from '../mock/index.js';
 * matchMockScenario(MOCK_PATIENTS[0]); // 1
 * ```
 */

export { MOCK_PATIENTS, matchMockScenario, type MockPatient } from './patients.js';
