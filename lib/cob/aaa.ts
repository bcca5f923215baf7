/**
 * Payer AAA errors in a Stedi COB answer → AaaRejection values and the error of docs/api.md#errors.
 * Stedi bubbles every AAA up to the top-level `errors`; the nested `aaaErrors` are read only
 * when `errors` is empty, so nothing is listed twice.
 */
import type { AaaRejection } from '../errors/index.js';
import { isJsonObject } from '../upstream/index.js';
import { FOLLOW_UP_ACTIONS, knownFollowUp, knownRejectReason } from '../x12/index.js';

/** Where Stedi nests AAA errors, and the 271 loop each stands for. */
const NESTED_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['provider', '2100B'],
  ['subscriber', '2100C'],
  ['dependent', '2100D'],
];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function followUpAction(value: unknown): string {
  const given = text(value);
  if (!given) return '';
  const code = given.toUpperCase();
  const known = knownFollowUp(code);
  if (known) return `${code}: ${known}`;
  // Stedi's JSON usually gives only the text, so the code is found from it.
  const byText = Object.entries(FOLLOW_UP_ACTIONS).find(([, name]) => name.toLowerCase() === given.toLowerCase());
  return byText ? `${byText[0]}: ${byText[1]}` : given;
}

function loopOf(location: unknown, fallback: string): string {
  const match = /\b(2000A|2100[A-D]|2110[CD])\b/.exec(text(location) ?? '');
  return match ? match[1]! : fallback;
}

function rejection(error: unknown, fallbackLoop: string): AaaRejection | undefined {
  if (!isJsonObject(error)) return undefined;
  const code = text(error.code);
  if (!code) return undefined;
  return {
    code,
    description: knownRejectReason(code) ?? text(error.description) ?? 'Unknown reject reason',
    followUpAction: followUpAction(error.followupAction ?? error.followUpAction),
    loop: loopOf(error.location, fallbackLoop),
  };
}

function collect(list: unknown, fallbackLoop: string): AaaRejection[] {
  if (!Array.isArray(list)) return [];
  return list.map((error) => rejection(error, fallbackLoop)).filter((r): r is AaaRejection => r !== undefined);
}

/** The payer AAA errors of a Stedi COB answer (HTTP 200 or 400), in answer order. */
export function cobErrors(answer: unknown): AaaRejection[] {
  if (!isJsonObject(answer)) return [];
  const top = collect(answer.errors, 'unknown');
  if (top.length > 0) return top;
  return NESTED_SOURCES.flatMap(([key, loop]) => {
    const holder = answer[key];
    return isJsonObject(holder) ? collect(holder.aaaErrors, loop) : [];
  });
}
