/**
 * Prior authorization per network (docs/eligibility.md#authorization-per-network): over an entry's
 * rows that fit each network as for slots (in: EB12 Y, W, U or empty; out: N, W, U or empty), EB11
 * `Y` on every row that states it is `true`, `N` on every one `false`, both `"some"`; a network where
 * no row states it is omitted. The `Y` rows' messages explain it.
 */
import type { BenefitRow } from './benefit-row.js';
import type { ServiceBenefit } from './types.js';

export type Authorization = ServiceBenefit['authorization'];
type Answer = NonNullable<Authorization['in']>;

const NETWORKS: Readonly<Record<keyof Authorization, ReadonlySet<string>>> = {
  in: new Set(['Y', 'W', 'U', '']),
  out: new Set(['N', 'W', 'U', '']),
};
const REQUIRED = 'Y';
const NOT_REQUIRED = 'N';
const MAX_NOTES = 3;

function answerOf(rows: readonly BenefitRow[], network: keyof Authorization): Answer | undefined {
  let yes = false;
  let no = false;
  for (const row of rows) {
    if (!NETWORKS[network].has(row.network)) continue;
    if (row.authorization === REQUIRED) yes = true;
    else if (row.authorization === NOT_REQUIRED) no = true;
  }
  if (yes && no) return 'some';
  return yes ? true : no ? false : undefined;
}

/** The first MAX_NOTES distinct messages of the rows that say authorization is required. */
function notesOf(rows: readonly BenefitRow[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    if (row.authorization !== REQUIRED) continue;
    for (const message of row.messages) {
      const text = message.trim();
      if (text === '' || out.includes(text)) continue;
      out.push(text);
      if (out.length === MAX_NOTES) return out;
    }
  }
  return out;
}

/** What an entry says of authorization: per network, the notes, and `authorizationRequired` (the in-network answer when it is a boolean). */
export interface AuthorizationPart {
  authorization: Authorization;
  authorizationNotes?: string[];
  authorizationRequired?: boolean;
}

export function authorizationPart(rows: readonly BenefitRow[]): AuthorizationPart {
  const authorization: Authorization = {};
  const inNetwork = answerOf(rows, 'in');
  if (inNetwork !== undefined) authorization.in = inNetwork;
  const outNetwork = answerOf(rows, 'out');
  if (outNetwork !== undefined) authorization.out = outNetwork;
  const notes = notesOf(rows);
  return {
    authorization,
    ...(notes.length > 0 ? { authorizationNotes: notes } : {}),
    ...(typeof inNetwork === 'boolean' ? { authorizationRequired: inNetwork } : {}),
  };
}
