import type { Message } from '../../runtime/index.js';
import { citationMarker } from './body-markdown.js';
import { searchNotes, type NotesSearch } from '../intake/index.js';
import { cleanModelText } from './plain-text.js';

/**
 * The answer's page citations (docs/letter.md#citations). With citations enabled on the PDF
 * document block, the Messages API answers with several text blocks; a block that states something
 * from the document carries `citations`, each a `page_location` with the cited passage and its
 * 1-based start page. This module joins the blocks into one text, keeps each distinct passage once
 * (in order of first use), and marks the end of each cited sentence with its pages, as a sentinel
 * the markdown reader turns into a "[p. N]" run.
 *
 * Letters trust only the notes (docs/letter.md#citations): a citation counts only if its page
 * exists in the notes and its passage is found on that page of the notes' text layer (whitespace
 * and case aside; a passage may run on into the next page). Others are dropped, and so are their
 * markers. Model output costs in proportion to what is kept: one pass reads every citation, and
 * only the first MAX_CITATIONS distinct passages (in order of first use) are looked up in the notes;
 * the rest are dropped unsearched. A scan has no text layer to search: its citations are checked
 * for their page only (see docs/letter.md#citations).
 */

export interface Citation {
  /** 1-based start page of the cited passage. */
  page: number;
  /** The passage as the API returned it, at most CITED_TEXT_MAX characters. */
  citedText: string;
}

const CITED_TEXT_MAX = 500;
/** Distinct passages looked up, and so at most kept, in one letter (20,000 citations made a 3.5 MB answer). */
export const MAX_CITATIONS = 100;

/** What a citation is checked against: the notes' text per page (null for a scan), their page count, and the search over them. */
export interface CitationEvidence {
  pages: string[] | null;
  pageCount: number;
  /** The search shared with the code check (built from `pages` when not given). */
  search?: NotesSearch;
}

/** The other documents of a criteria letter, by their index in the request (the notes are 0). */
export interface OtherDocuments {
  policy?: { index: number; evidence: CitationEvidence };
  denial?: { index: number; evidence: CitationEvidence };
}

export interface CitedText {
  /** The answer's text with marker sentinels at the end of each cited sentence. */
  text: string;
  citations: Citation[];
  /** The policy's and the denial's passages the text cites, each checked against its own document. */
  policyCitations: Citation[];
  denialCitations: Citation[];
  /** Citations dropped because their page or passage is not in the notes. */
  notFound: number;
  /** Distinct passages dropped, unsearched, past MAX_CITATIONS. */
  overLimit: number;
}

interface PageLocation {
  type: 'page_location';
  cited_text: string;
  start_page_number: number;
  document_index?: number;
}

const isPageLocation = (value: unknown): value is PageLocation => {
  const c = value as Partial<PageLocation> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.type === 'page_location' &&
    typeof c.cited_text === 'string' &&
    Number.isInteger(c.start_page_number) &&
    (c.start_page_number as number) >= 1
  );
};

/**
 * Where each cited block's sentence ends: after its closing punctuation, or before the line break.
 * Built once per answer (every candidate end, and where the text before each position stops being
 * blank), so 20,000 cited blocks cost one pass plus a binary search each, not a scan each.
 */
function sentenceEnds(text: string): (blockEnd: number) => number {
  const candidates = [...text.matchAll(/[.!?](?=[\s"'”’)\]]|$)|\n/g)].map((match) => ({ index: match.index, newline: match[0] === '\n' }));
  // contentEnd[i]: the end of the text before i with trailing whitespace trimmed.
  const contentEnd = new Int32Array(text.length + 1);
  for (let i = 1; i <= text.length; i++) contentEnd[i] = /\s/.test(text[i - 1]!) ? contentEnd[i - 1]! : i;
  const trimmedLength = contentEnd[text.length]!;
  return (blockEnd) => {
    const from = Math.max(0, contentEnd[blockEnd]! - 1);
    let lo = 0;
    let hi = candidates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[mid]!.index < from) lo = mid + 1;
      else hi = mid;
    }
    const match = candidates[lo];
    if (!match) return trimmedLength;
    if (match.newline) {
      let before = match.index;
      while (before > 0 && /[ \t]/.test(text[before - 1]!)) before -= 1;
      return before;
    }
    // Closing quotes or brackets right after the full stop belong to the sentence.
    let after = match.index + 1;
    while (after < text.length && /["'”’)\]]/.test(text[after]!)) after += 1;
    return after;
  };
}

const truncate = (text: string) => ([...text].length > CITED_TEXT_MAX ? [...text].slice(0, CITED_TEXT_MAX).join('') : text);

/**
 * `budget` is shared by callers that read one answer in several parts (./criteria.ts): the passages
 * looked up across all of them stay within MAX_CITATIONS.
 */
export function readCitedText(message: Message, evidence: CitationEvidence, others: OtherDocuments = {}, budget = { searched: 0 }): CitedText {
  let text = '';
  /** Each document's kept passages, and its marker prefix: notes pages bare, "policy:3", "denial:1". */
  const kinds = [
    { prefix: '', evidence, search: evidence.search ?? searchNotes(evidence.pages), kept: [] as Citation[] },
    ...(['policy', 'denial'] as const).flatMap((name) => {
      const doc = others[name];
      return doc
        ? [
            {
              prefix: `${name}:`,
              index: doc.index,
              evidence: doc.evidence,
              search: doc.evidence.search ?? searchNotes(doc.evidence.pages),
              kept: [] as Citation[],
            },
          ]
        : [];
    }),
  ];
  const kindOf = (index: number | undefined) => (index === undefined || index === 0 ? kinds[0] : kinds.find((kind) => 'index' in kind && kind.index === index));
  /** Each distinct passage seen: its index in its document's list, or why it is not kept. */
  const seen = new Map<string, number | 'not-found' | 'over-limit'>();
  const marks: Array<{ at: number; pages: string[] }> = [];
  let notFound = 0;
  let overLimit = 0;

  /** A passage's fate, decided once: its document and page, then (within the limit) that document's text. */
  const decide = (kind: (typeof kinds)[number] | undefined, page: number, citedText: string): number | 'not-found' | 'over-limit' => {
    if (!kind || page > kind.evidence.pageCount) return 'not-found';
    if (budget.searched >= MAX_CITATIONS) return 'over-limit';
    budget.searched += 1;
    if (!kind.search.passageOn(page, citedText)) return 'not-found';
    kind.kept.push({ page, citedText });
    return kind.kept.length - 1;
  };

  for (const block of message.content) {
    if (block?.type !== 'text' || typeof (block as { text?: unknown }).text !== 'string') continue;
    // The sentinels (U+E000–U+E002) are ours: a model that writes them gets them removed; so are control characters.
    const piece = cleanModelText(block.text.replace(/[\uE000-\uE002]/g, ''));
    text += piece;
    const pages: string[] = [];
    for (const citation of Array.isArray(block.citations) ? block.citations : []) {
      if (!isPageLocation(citation)) continue;
      const page = citation.start_page_number;
      const kind = kindOf(citation.document_index);
      const citedText = truncate(cleanModelText(citation.cited_text).trim());
      const key = `${citation.document_index ?? 0}\u0000${page}\u0000${citedText}`;
      let fate = seen.get(key);
      if (fate === undefined) {
        fate = decide(kind, page, citedText);
        seen.set(key, fate);
        if (fate === 'over-limit') overLimit += 1;
      }
      if (fate === 'not-found') notFound += 1;
      if (typeof fate !== 'number' || !kind) continue;
      const token = `${kind.prefix}${page}`;
      if (!pages.includes(token)) pages.push(token);
    }
    if (pages.length) marks.push({ at: text.length, pages });
  }

  // Resolve each mark to its sentence end; marks landing on the same spot merge their pages.
  const byPosition = new Map<number, string[]>();
  const sentenceEnd = sentenceEnds(text);
  for (const mark of marks) {
    const at = sentenceEnd(mark.at);
    const pages = byPosition.get(at) ?? [];
    for (const page of mark.pages) if (!pages.includes(page)) pages.push(page);
    byPosition.set(at, pages);
  }
  // Joined once: one slice per marker, not a copy of the whole text per marker.
  const parts: string[] = [];
  let from = 0;
  for (const at of [...byPosition.keys()].sort((a, b) => a - b)) {
    parts.push(text.slice(from, at), ` ${citationMarker(byPosition.get(at)!)}`);
    from = at;
  }
  parts.push(text.slice(from));
  const keptOf = (prefix: string) => kinds.find((kind) => kind.prefix === prefix)?.kept ?? [];
  return { text: parts.join(''), citations: kinds[0].kept, policyCitations: keptOf('policy:'), denialCitations: keptOf('denial:'), notFound, overLimit };
}

/** The sentinels removed: the text the model wrote, for checks that must not see markers. */
export const withoutMarkers = (text: string): string => text.replace(/ ?\uE000[^\uE000\uE001]*\uE001/g, '');
