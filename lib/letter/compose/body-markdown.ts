import { fromMarkdown } from 'mdast-util-from-markdown';
import type { ListItem, Nodes, PhrasingContent, RootContent } from 'mdast';
import type { FontStyle, Run } from '../../pdf/index.js';
import { defuseLinks, defuseSchemes } from './plain-text.js';

/**
 * The model's body, read with a real markdown parser (mdast) into the few blocks a letter has:
 * headings, paragraphs, list items (one nested level), rules. Walking the tree is what makes the
 * output markup-free (docs/letter.md#markup): raw HTML, images and link targets have no block or
 * run to go into, so they are dropped; a link keeps its visible text; code keeps its text.
 * Both outputs (markdown and PDF) are written from these blocks, so they carry the same words.
 *
 * Citation markers arrive as sentinels (see ./citations.ts) inside the text and leave as runs of
 * their own, which the markdown writer emits verbatim and the code check never touches.
 */

export type { FontStyle, Run };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'item'; depth: 0 | 1; marker: string; ordered: boolean; runs: Run[] }
  | { kind: 'rule' };

/** Private-use characters that frame a citation marker's text inside the model's answer. */
export const MARKER_OPEN = '\uE000';
export const MARKER_CLOSE = '\uE001';
const MARKER_SPLIT = /\uE000([^\uE000\uE001]*)\uE001/;

/**
 * A citation marker for `pages` as it travels through the markdown parser: the page numbers
 * alone between the sentinels, no brackets (the parser's work on brackets grows with the square
 * of their number in a paragraph: 16,000 "[p. 1]" cost it 5 s). It leaves as the run "[p. 2] [p. 3]".
 */
export const citationMarker = (pages: Array<number | string>): string => `${MARKER_OPEN}${pages.join(' ')}${MARKER_CLOSE}`;

/**
 * A marker's pages ("2 3 policy:4") as the letter shows them: "[p. 2] [p. 3] [policy p. 4]". The
 * notes' pages are bare; the policy's and the denial's carry their document's name.
 */
const markerLabel = (pages: string): string =>
  pages
    .split(' ')
    .filter(Boolean)
    .map((token) => {
      const [, document, page] = /^(?:(policy|denial):)?(\d+)$/.exec(token) ?? [];
      return page ? `[${document ? `${document} ` : ''}p. ${page}]` : '';
    })
    .filter(Boolean)
    .join(' ');

const styleOf = (bold: boolean, italic: boolean): FontStyle => (bold && italic ? 'boldItalic' : bold ? 'bold' : italic ? 'italic' : 'regular');

interface Emphasis {
  bold: boolean;
  italic: boolean;
}

function pushText(runs: Run[], text: string, style: FontStyle): void {
  // Line breaks inside a block are layout, not content; scheme defusing keeps javascript:/data: out,
  // and link defusing leaves no URL a renderer would link.
  const parts = text.split(MARKER_SPLIT);
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      const label = markerLabel(part);
      if (label) runs.push({ text: label, style: 'regular', marker: true });
      return;
    }
    const clean = defuseLinks(defuseSchemes(part)).replace(/\s+/g, ' ');
    if (!clean) return;
    const last = runs[runs.length - 1];
    if (last && !last.marker && last.style === style) last.text += clean;
    else runs.push({ text: clean, style });
  });
}

function phrasing(nodes: PhrasingContent[], emphasis: Emphasis, runs: Run[] = []): Run[] {
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
        pushText(runs, node.value, styleOf(emphasis.bold, emphasis.italic));
        break;
      case 'strong':
        phrasing(node.children, { ...emphasis, bold: true }, runs);
        break;
      case 'emphasis':
        phrasing(node.children, { ...emphasis, italic: true }, runs);
        break;
      case 'delete':
        phrasing(node.children, emphasis, runs);
        break;
      case 'link':
      case 'linkReference':
        // The visible text stays; the target (javascript:, data:, a tracker) goes.
        phrasing(node.children, emphasis, runs);
        break;
      case 'break':
        pushText(runs, ' ', styleOf(emphasis.bold, emphasis.italic));
        break;
      default:
        // html, image, imageReference, footnoteReference: nothing a reader of the letter sees.
        break;
    }
  }
  return runs;
}

/** Collapses the spaces that removed markup leaves, trims the block's outer whitespace, drops empty runs. */
function tidy(runs: Run[]): Run[] {
  const out: Run[] = [];
  let spaceBefore = true; // at the block's start, leading spaces go
  for (const run of runs) {
    if (run.marker) {
      out.push(run);
      spaceBefore = false;
      continue;
    }
    let text = run.text.replace(/ {2,}/g, ' ');
    if (spaceBefore) text = text.replace(/^ /, '');
    if (text === '') continue;
    spaceBefore = text.endsWith(' ');
    const last = out[out.length - 1];
    if (last && !last.marker && last.style === run.style) last.text += text;
    else out.push({ ...run, text });
  }
  const lastIndex = out.length - 1;
  if (lastIndex >= 0 && !out[lastIndex].marker) out[lastIndex] = { ...out[lastIndex], text: out[lastIndex].text.trimEnd() };
  return out.filter((run) => run.text !== '');
}

/** The visible words of any node, as runs (used where the letter has no room for structure). */
function flatten(node: Nodes, emphasis: Emphasis, runs: Run[]): void {
  if (node.type === 'code') {
    pushText(runs, ` ${node.value} `, styleOf(emphasis.bold, emphasis.italic));
    return;
  }
  if (node.type === 'html' || node.type === 'image' || node.type === 'imageReference' || node.type === 'definition') return;
  if ('value' in node && typeof node.value === 'string' && node.type !== 'yaml') {
    phrasing([node as PhrasingContent], emphasis, runs);
    return;
  }
  if (node.type === 'strong' || node.type === 'emphasis' || node.type === 'link' || node.type === 'linkReference' || node.type === 'break') {
    phrasing([node], emphasis, runs);
    return;
  }
  if ('children' in node) {
    for (const child of node.children as Nodes[]) {
      flatten(child, emphasis, runs);
      if (child.type === 'paragraph' || child.type === 'heading') runs.push({ text: ' ', style: 'regular' });
    }
  }
}

function listItems(items: ListItem[], ordered: boolean, start: number, depth: 0 | 1, blocks: Block[]): void {
  items.forEach((item, index) => {
    const runs: Run[] = [];
    const nested: Nodes[] = [];
    for (const child of item.children) {
      if (child.type === 'list' && depth === 0) nested.push(child);
      else flatten(child, { bold: false, italic: false }, runs);
    }
    const marker = ordered ? `${start + index}.` : depth ? '◦' : '•';
    const clean = tidy(runs);
    if (clean.length) blocks.push({ kind: 'item', depth, marker, ordered, runs: clean });
    for (const list of nested) {
      if (list.type === 'list') listItems(list.children, !!list.ordered, list.start ?? 1, 1, blocks);
    }
  });
}

function block(node: RootContent, blocks: Block[]): void {
  switch (node.type) {
    case 'heading': {
      const runs = tidy(phrasing(node.children, { bold: true, italic: false }));
      if (runs.length) blocks.push({ kind: 'heading', level: Math.min(Math.max(node.depth, 1), 3) as 1 | 2 | 3, runs });
      return;
    }
    case 'paragraph': {
      const runs = tidy(phrasing(node.children, { bold: false, italic: false }));
      if (runs.length) blocks.push({ kind: 'paragraph', runs });
      return;
    }
    case 'list':
      listItems(node.children, !!node.ordered, node.start ?? 1, 0, blocks);
      return;
    case 'blockquote':
      for (const child of node.children) block(child, blocks);
      return;
    case 'thematicBreak':
      blocks.push({ kind: 'rule' });
      return;
    case 'code': {
      const runs: Run[] = [];
      flatten(node, { bold: false, italic: false }, runs);
      const clean = tidy(runs);
      if (clean.length) blocks.push({ kind: 'paragraph', runs: clean });
      return;
    }
    default: {
      // html, definition (a reference link's target) and anything unexpected: text only, if any.
      if (node.type === 'html' || node.type === 'definition') return;
      const runs: Run[] = [];
      flatten(node, { bold: false, italic: false }, runs);
      const clean = tidy(runs);
      if (clean.length) blocks.push({ kind: 'paragraph', runs: clean });
    }
  }
}

/** Parses the model's markdown into letter blocks; nothing it wrote as markup survives as markup. */
export function parseLetterMarkdown(body: string): Block[] {
  const tree = fromMarkdown(body);
  const blocks: Block[] = [];
  for (const node of tree.children) block(node, blocks);
  return blocks;
}

/** The text of a block's runs (markers included), for searching. */
export const runsText = (runs: Run[]): string => runs.map((run) => run.text).join('');
