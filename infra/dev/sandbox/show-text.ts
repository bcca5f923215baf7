/**
 * The text a content stream shows, read the cheap way the AI sandbox needs (docs/api.md#sandboxes):
 * the operands of the show-text operators, one line per operator. Not a PDF text extractor: the
 * service reads the real text layer with pdf.js (lib/letter/intake/text-layer.ts).
 */

/** Decodes PDF string literals: escapes and octal codes. */
const literal = (raw: string): string =>
  raw.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, esc: string) => {
    const table: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    if (esc in table) return table[esc];
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
    return '';
  });

/** A literal string's body from the `(` at `at`: parentheses nest unless escaped; undefined if it never closes. */
function literalAt(content: string, at: number): { raw: string; end: number } | undefined {
  let depth = 0;
  for (let p = at; p < content.length; p++) {
    const c = content[p];
    if (c === '\\') p++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { raw: content.slice(at + 1, p), end: p + 1 };
  }
  return undefined;
}

/**
 * Show-text operands of one content stream, one line per operator (what simple generators such as
 * pdf-lib write). One pass, each character read once: a regular expression over unclosed `[` or
 * `(` backtracked quadratically (3 MiB of `[` would have held the local server for hours).
 */
export function showTextLines(content: string): string[] {
  const lines: string[] = [];
  let operands: string[] = [];
  let inArray = false;
  for (let p = 0; p < content.length; ) {
    const c = content[p]!;
    if (c === '(') {
      const string = literalAt(content, p);
      if (!string) break;
      operands.push(literal(string.raw));
      p = string.end;
    } else if (c === '<' && content[p + 1] !== '<') {
      const close = content.indexOf('>', p);
      if (close < 0) break;
      operands.push(Buffer.from(content.slice(p + 1, close).replace(/[^0-9A-Fa-f]/g, ''), 'hex').toString('latin1'));
      p = close + 1;
    } else if (c === '[') {
      inArray = true;
      operands = [];
      p++;
    } else if (c === ']') {
      inArray = false;
      p++;
    } else if (/[A-Za-z'"]/.test(c)) {
      let end = p + 1;
      while (end < content.length && /[A-Za-z*]/.test(content[end]!)) end++;
      const operator = content.slice(p, end);
      if ((operator === 'Tj' || operator === 'TJ' || operator === "'" || operator === '"') && operands.length) lines.push(operands.join(''));
      if (!inArray) operands = [];
      p = end;
    } else p++;
  }
  return lines;
}
