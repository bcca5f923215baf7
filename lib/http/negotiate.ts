/**
 * Content negotiation for a route that can answer in more than one media type
 * (docs/api.md#printable-summary): the `Accept` header's media ranges and their `q` weights
 * (RFC 9110, section 12.5.1), the most specific range deciding each offered type's weight. The
 * highest weight wins; a tie goes to the type offered first (JSON, the default). No `Accept`, or an
 * empty one, is the first offered type; an `Accept` that allows none of them is undefined (a 406).
 */

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function ranges(accept: string): Range[] {
  return accept
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .flatMap((part) => {
      const [mediaRange = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const [type, subtype] = mediaRange.toLowerCase().split('/');
      if (!type || !subtype) return [];
      const qParameter = parameters.find((parameter) => /^q\s*=/i.test(parameter));
      const q = qParameter === undefined ? 1 : Number(qParameter.replace(/^q\s*=\s*/i, ''));
      return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type, subtype, q }] : [];
    });
}

/** The weight the ranges give a `type/subtype`: that of the most specific range matching it, else 0. */
function weight(offered: string, accepted: Range[]): number {
  const [type, subtype] = offered.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of accepted) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (best === undefined || specificity > best.specificity)) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** The offered media type the `Accept` header prefers (`offered[0]` is the default); undefined when it allows none. */
export function preferredType(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (accept === undefined || accept.trim() === '') return offered[0];
  const accepted = ranges(accept);
  if (accepted.length === 0) return offered[0];
  let chosen: { type: string; q: number } | undefined;
  for (const type of offered) {
    const q = weight(type, accepted);
    if (q > 0 && (chosen === undefined || q > chosen.q)) chosen = { type, q };
  }
  return chosen?.type;
}
