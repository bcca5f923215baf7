/**
 * Whether an eligibility answer stays inside what docs/eligibility.md promises: a real answer's response
 * schema (lib/validation/responses, through test/support/response-schemas.ts: the declaration the answer
 * types and the OpenAPI document come from), plus what that schema cannot say: its notice codes are the
 * eligibility ones (the notice schema is shared with the letter), and there is one `procedures` entry per
 * requested code, in order.
 * Returns the first problem found, or undefined.
 */
import { ELIGIBILITY_NOTICE_CODES } from '../../lib/validation/responses/vocabulary.js';
import { responseProblems } from './response-schemas.js';

const NOTICE_CODES: ReadonlySet<string> = new Set(ELIGIBILITY_NOTICE_CODES);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `answer`: a 200 body, or interpret271's summary (message and checkedAt are then supplied). `asked`: the request's procedure codes. */
export function answerProblem(answer: unknown, asked?: { procedureCodes?: readonly string[] }): string | undefined {
  if (!isObject(answer)) return 'not an object';
  const body = { ...answer, message: answer.message ?? 'Eligibility check successful', checkedAt: answer.checkedAt ?? new Date().toISOString() };
  const problems = responseProblems('realEligibility', body);
  if (problems.length > 0) return problems[0];
  for (const notice of answer.notices as { code: string }[]) if (!NOTICE_CODES.has(notice.code)) return `notice code ${notice.code}`;
  if (asked !== undefined) {
    const codes = asked.procedureCodes;
    const procedures = answer.procedures as { code: string }[] | undefined;
    if (codes === undefined ? procedures !== undefined : procedures?.map((p) => p.code).join() !== codes.join())
      return 'procedures do not follow procedureCodes';
  }
  return undefined;
}
