/**
 * The small markdown subset the letter body uses (prompt.ts asks for exactly this), parsed into
 * blocks for the PDF: headings #/##/###, paragraphs, bullet and numbered lists with one nested
 * level, rules, and inline **bold**, *italic*, ***both***. Anything else is kept as plain text,
 * so nothing the model wrote is lost.
 */

export type FontStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

export interface Run {
  text: string;
  style: FontStyle;
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'item'; depth: 0 | 1; marker: string; runs: Run[] }
  | { kind: 'rule' };

const styleOf = (bold: boolean, italic: boolean): FontStyle =>
  bold && italic ? 'boldItalic' : bold ? 'bold' : italic ? 'italic' : 'regular';

interface Token {
  text: string;
  delimiter?: number; // length of a * or _ run that may open or close emphasis
  bold?: boolean;
  italic?: boolean;
}

/** Inline emphasis: pairs delimiter runs of equal length; unpaired ones stay literal text. */
export function parseInline(source: string, base: { bold?: boolean; italic?: boolean } = {}): Run[] {
  const text = source
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\(([^)\s]*)\)/g, (_, label: string, url: string) => (url ? `${label} (${url})` : label));
  const tokens: Token[] = [];
  let plain = '';
  for (let i = 0; i < text.length; ) {
    const char = text[i];
    if (char === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|<>~=]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    let runEnd = i;
    while (text[runEnd] === char) runEnd += 1;
    // Underscores inside a word (snake_case) are never emphasis.
    const intraword = char === '_' && /\w/.test(text[i - 1] ?? '') && /\w/.test(text[runEnd] ?? '');
    if (char === '*' || (char === '_' && !intraword)) {
      const end = runEnd;
      const run = text.slice(i, end);
      const before = text[i - 1] ?? ' ';
      const after = text[end] ?? ' ';
      // A run between spaces ("2 * 3") or longer than *** is not emphasis.
      if (run.length <= 3 && !(/\s/.test(before) && /\s/.test(after))) {
        if (plain) tokens.push({ text: plain });
        plain = '';
        tokens.push({ text: run, delimiter: run.length });
        i = end;
        continue;
      }
      plain += run;
      i = end;
      continue;
    }
    plain += char;
    i += 1;
  }
  if (plain) tokens.push({ text: plain });

  // Pair delimiters: a closer matches the nearest open delimiter of the same text.
  const open: number[] = [];
  const pairs = new Map<number, number>();
  tokens.forEach((token, index) => {
    if (!token.delimiter) return;
    const match = [...open].reverse().find((o) => tokens[o].text === token.text);
    const prevChar = index > 0 ? tokens[index - 1].text.slice(-1) : ' ';
    if (match !== undefined && !/\s/.test(prevChar)) {
      pairs.set(match, index);
      open.splice(open.indexOf(match));
    } else {
      open.push(index);
    }
  });

  const runs: Run[] = [];
  let bold = !!base.bold;
  let italic = !!base.italic;
  const closers = new Set(pairs.values());
  tokens.forEach((token, index) => {
    if (token.delimiter && (pairs.has(index) || closers.has(index))) {
      const opening = pairs.has(index);
      if (token.delimiter !== 2) italic = opening ? true : !!base.italic;
      if (token.delimiter >= 2) bold = opening ? true : !!base.bold;
      return;
    }
    const style = styleOf(bold, italic);
    const last = runs[runs.length - 1];
    if (last && last.style === style) last.text += token.text;
    else runs.push({ text: token.text, style });
  });
  return runs;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d{1,3})[.)]\s+(.*)$/;
const RULE = /^\s*(?:[-*_]\s*){3,}$/;

export function parseLetterMarkdown(body: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let item: { depth: 0 | 1; marker: string; lines: string[] } | null = null;

  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', runs: parseInline(paragraph.join(' ')) });
    if (item) blocks.push({ kind: 'item', depth: item.depth, marker: item.marker, runs: parseInline(item.lines.join(' ')) });
    paragraph = [];
    item = null;
  };

  for (const rawLine of body.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n')) {
    const line = rawLine.replace(/\s+$/, '');
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (RULE.test(line) && !BULLET.test(line.replace(/^\s*[-*+]\s*$/, ''))) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1].length, 3) as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, runs: parseInline(heading[2], { bold: true }) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      flush();
      const indent = (bullet ?? numbered)![1].length;
      const depth: 0 | 1 = indent >= 2 ? 1 : 0;
      item = bullet
        ? { depth, marker: depth ? '◦' : '•', lines: [bullet[2]] }
        : { depth, marker: `${numbered![2]}.`, lines: [numbered![3]] };
      continue;
    }
    const content = line.replace(/^\s*>\s?/, '').trim();
    if (item && (/^\s{2,}/.test(line) || paragraph.length === 0)) {
      (item as { lines: string[] }).lines.push(content); // lazy continuation of the list item
    } else {
      paragraph.push(content);
    }
  }
  flush();
  return blocks;
}
