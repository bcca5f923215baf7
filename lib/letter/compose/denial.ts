import codeLists from './data/x12-adjustment-codes.json' with { type: 'json' };
import type { DenialFields } from './criteria.js';

/**
 * The denial an appeal answers (docs/letter.md#appeals): the reason the model quoted from the denial
 * (kept as written only when its citation was found in the denial), and the CARC and RARC codes it
 * read, each kept only when it appears in the denial's own text layer AND in the bundled X12 lists
 * (./data/x12-adjustment-codes.json, with their source and version). An appeal deadline is kept only
 * when the denial's text states it.
 */

export interface AdjustmentCode {
  code: string;
  description: string;
}

export interface Denial {
  reason: string;
  carcCodes: AdjustmentCode[];
  rarcCodes: AdjustmentCode[];
  appealDeadline?: string;
}

/** Where the bundled lists come from and which release they are (for docs and the answer's readers). */
export const ADJUSTMENT_CODE_LISTS = { source: codeLists.source, version: codeLists.version } as const;

const CARC: Record<string, string> = codeLists.carc;
const RARC: Record<string, string> = codeLists.rarc;

/** The reason, when the model's was not found in the denial: never the model's unverified words. */
export const UNCONFIRMED_REASON = 'The denial reason could not be confirmed in the denial letter';

const squash = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();

/** A CARC is written with or without its group code ("CO-50", "CO 50", "50"); a RARC as is ("N115"). */
function keep(written: string[], list: Record<string, string>, denialText: string, carc: boolean): AdjustmentCode[] {
  const kept: AdjustmentCode[] = [];
  for (const raw of written) {
    const code = (carc ? raw.replace(/^(?:CO|PR|OA|PI|CR)[-\s]?/i, '') : raw).toUpperCase().replace(/[^A-Z0-9]/g, '');
    const description = list[code];
    if (!description || kept.some((c) => c.code === code)) continue;
    // Found in the denial's text as a whole token (a CARC possibly behind its group code).
    const token = new RegExp(`(?:^|[^A-Za-z0-9])${carc ? '(?:(?:CO|PR|OA|PI|CR)[-\\s]?)?' : ''}${code}(?![A-Za-z0-9])`, 'i');
    if (token.test(denialText)) kept.push({ code, description });
  }
  return kept;
}

/** `pages` is the denial's text layer (null for a scan: then no code or deadline can be confirmed). */
export function checkDenial(fields: DenialFields | undefined, pages: string[] | null): Denial {
  const text = (pages ?? []).join('\n');
  const reason = fields?.reason && fields.reasonCited ? fields.reason : UNCONFIRMED_REASON;
  const deadline = fields?.deadline && text && squash(text).includes(squash(fields.deadline)) ? fields.deadline : undefined;
  return {
    reason,
    carcCodes: keep(fields?.carc ?? [], CARC, text, true),
    rarcCodes: keep(fields?.rarc ?? [], RARC, text, false),
    ...(deadline ? { appealDeadline: deadline } : {}),
  };
}
