/**
 * Whether an eligibility answer stays inside what docs/eligibility.md promises: the response schema
 * (infra/tools/openapi/responses.ts, through test/support/response-schemas.ts), plus what a schema cannot
 * say: every level object of a real answer has stopLossRemaining (the schema also serves mock
 * answers, which have none), notice codes come from their list, and there is one `procedures`
 * entry per requested code, in order.
 * Returns the first problem found, or undefined.
 */
import { responseProblems } from './response-schemas.js';

const NOTICE_CODES = new Set(['OTHER_PAYER', 'MEDICARE_ADVANTAGE', 'FAMILY_LEVEL_ONLY', 'SERVICE_NOT_RETURNED']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `answer`: a 200 body, or interpret271's summary (message and checkedAt are then supplied). `asked`: the request's procedure codes. */
export function answerProblem(answer: unknown, asked?: { procedureCodes?: readonly string[] }): string | undefined {
  if (!isObject(answer)) return 'not an object';
  const body = { ...answer, message: answer.message ?? 'Eligibility check successful', checkedAt: answer.checkedAt ?? new Date().toISOString() };
  const problems = responseProblems('eligibility', body);
  if (problems.length > 0) return problems[0];
  for (const key of ['coverageStatus', 'plan', 'subscriber', 'benefits', 'otherPayers', 'notices']) if (!(key in answer)) return `${key} missing`;
  const blocks = [answer, ...(answer.benefits as Json[]), ...((answer.procedures as Json[] | undefined) ?? [])];
  for (const block of blocks) {
    for (const network of ['inNetwork', 'outNetwork']) {
      const levels = block[network] as Record<string, Json>;
      if (!('stopLossRemaining' in levels.individual!) || !('stopLossRemaining' in levels.family!)) return `${network} level without stopLossRemaining`;
    }
  }
  for (const notice of answer.notices as { code: string }[]) if (!NOTICE_CODES.has(notice.code)) return `notice code ${notice.code}`;
  if (asked !== undefined) {
    const codes = asked.procedureCodes;
    const procedures = answer.procedures as { code: string }[] | undefined;
    if (codes === undefined ? procedures !== undefined : procedures?.map((p) => p.code).join() !== codes.join())
      return 'procedures do not follow procedureCodes';
  }
  return undefined;
}
