import { type Block, type Run, runsText } from './body-markdown.js';
import { codeKey, searchNotes, type NotesSearch } from '../intake/index.js';

/**
 * Billing codes in the letter body, verified against the notes (docs/letter.md#codes).
 *
 * Found: every token shaped like a code, labelled or bare: ICD-10-CM (a letter, a digit, a digit or
 * A/B, then up to 4 more, with or without the dot: M17.11, M1711, I10), CPT (5 digits, or 4 digits
 * and F/T/U) and HCPCS Level II (a letter and 4 digits). A token that is plainly something else is
 * not a code: a money amount, a date, a phone number, a ZIP code, a quantity with its unit, a vitamin
 * or a lab name, or a value the request supplied (EXCLUSIONS below).
 *
 * Verified: the code appears in the notes' own text layer, ignoring case and the ICD-10 dot; `pages`
 * lists where. A cited passage is not evidence: it is the model's word for what the notes say.
 * An unverified code is removed from the body (with the label, brackets, list separator or
 * sentence it leaves without sense). When the notes have no text layer, nothing can be checked:
 * codes stay, with no pages.
 *
 * Work is in proportion to the codes kept: the shapes, labels and exclusions are each found in one
 * pass per run of text, and each distinct code is looked up in the notes once (an index built in one
 * pass over the pages, ./notes-search.ts), however often the answer repeats it.
 */

type CodeSystem = 'icd10' | 'cpt';

interface CodeEntry {
  code: string;
  description?: string;
  pages: number[];
}

export interface CodeReport {
  icd10: CodeEntry[];
  cpt: CodeEntry[];
}

export interface CodeEvidence {
  /** The notes' text per page (index 0 = page 1), or null when the notes have no text layer. */
  pages: string[] | null;
  /** The request's own values (member id, NPI, cost, phone…): a code-shaped token in them is not a code. */
  supplied?: string[];
  /** The search shared with the citation check (built from `pages` when not given). */
  search?: NotesSearch;
}

export interface VerifiedBody {
  blocks: Block[];
  codes: CodeReport;
  /** Codes removed from the body, as the model wrote them, in order of first appearance. */
  removed: string[];
}

interface Pattern {
  system: CodeSystem;
  pattern: RegExp;
  /** A letter and digits can be either system: the nearest label before the code decides. */
  ambiguous?: true;
}

/** In order: a span claimed by an earlier pattern is not read again. */
const PATTERNS: Pattern[] = [
  // ICD-10-CM with its dot: M17.11, S72.001A.
  { system: 'icd10', pattern: /(?<![\p{L}\p{N}.])[A-Z]\d[0-9A-Z]\.[0-9A-Z]{1,4}(?![\p{L}\p{N}]|\.\p{N})/gu },
  // HCPCS Level II: L1832 (letters HCPCS uses; "M1711" is HCPCS unless an ICD label comes nearer).
  { system: 'cpt', pattern: /(?<![\p{L}\p{N}])[A-CEGHJ-MP-V]\d{4}(?![\p{L}\p{N}])/gu, ambiguous: true },
  // CPT: 27447, and Category II/III 3074F, 0275T (and 4 digits + U for PLA codes).
  { system: 'cpt', pattern: /(?<![\p{L}\p{N}$.,])\d{4}[0-9FTU](?![\p{L}\p{N}]|[.,]\d)/gu },
  // ICD-10-CM without its dot: I10, E119, M1A0. The third character is a digit or A/B (C4A, D3A, M1A,
  // O9A, C7B…), so H2O, A1C and G6PD are not read as codes. A full stop after it ends the sentence.
  { system: 'icd10', pattern: /(?<![\p{L}\p{N}])[A-Z]\d[0-9AB][0-9A-Z]{0,4}(?![\p{L}\p{N}]|\.[\p{L}\p{N}])/gu, ambiguous: true },
];

const US_STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR|GU|VI';
// No one-letter units (g, L, m): "27448 L knee" is a code and a side.
const UNITS = '(?:steps|mg|mcg|µg|kg|lbs?|pounds|ml|mL|units?|IU|cells|copies|ft|feet|km|miles?|kcal|calories|/µL|/uL|/mm3|%)';

/**
 * Spans that are plainly not codes, whatever shape their digits have. A code-shaped token that
 * overlaps one is left alone (neither listed nor removed).
 */
const EXCLUSIONS: Array<{ what: string; pattern: RegExp }> = [
  // $1,234 · $28,500.00 · 12345.00 · 12345 USD · USD 12345 · 12345 dollars
  { what: 'money', pattern: /(?:\$|\bUSD\s*)\s*\d[\d,]*(?:\.\d+)?|\b\d[\d,]*\.\d{2}\b|\b\d[\d,]*(?:\.\d+)?\s*(?:USD|dollars)\b/gi },
  // 01-15-2025 · 1/15/25 · 2025-01-15 · 15.01.2025
  { what: 'date', pattern: /\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b|\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/g },
  // (555) 123-4567 · 555.123.4567 · +1 555 123 4567 · +44 20 7946 0958 · ext. 12345
  {
    what: 'phone',
    pattern:
      /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}\b|\+\d[\d\s().-]{6,}\d|\b(?:ext|x)\.?\s*\d{1,6}\b|\b(?:phone|tel|fax|call)[:.]?\s*\+?[\d\s().-]{5,}\d/gi,
  },
  // Springfield, IL 62704 · 62704-1234 · ZIP 62704
  // (The state is matched in capitals only: "or 27448" is a list, not Oregon.)
  { what: 'zip', pattern: new RegExp(String.raw`\b(?:${US_STATES})\s+\d{5}(?:-\d{4})?\b|\b\d{5}-\d{4}\b|\b[Zz][Ii][Pp](?:\s*[Cc]ode)?[:#]?\s*\d{5}\b`, 'g') },
  // 10000 steps · 12500 mg · 15000 /µL
  { what: 'quantity', pattern: new RegExp(String.raw`\b\d{5}\s*${UNITS}(?![\p{L}\p{N}])`, 'gu') },
  // Vitamin B12 · HbA1c · T12-L1 (spine levels)
  { what: 'name', pattern: /\bvitamin\s+[A-Z]\d{1,2}\b|\b(?:Hb)?A1c\b|\b[CTLS]\d{1,2}\s*[-–/]\s*[CTLS]?\d{1,2}\b/gi },
];

const normalize = codeKey;

interface Found {
  system: CodeSystem;
  code: string;
  start: number;
  end: number;
}

/** Marks `[start, end)` spans in a text as taken; whether a span overlaps one costs its own length. */
class Spans {
  private readonly taken: Uint8Array;
  constructor(length: number) {
    this.taken = new Uint8Array(length);
  }
  add(start: number, end: number): void {
    this.taken.fill(1, start, end);
  }
  overlaps(start: number, end: number): boolean {
    for (let i = start; i < end; i++) if (this.taken[i]) return true;
    return false;
  }
}

const LABEL_WORD = /\b(ICD|CPT|HCPCS)\b/gi;

/** The label ("ICD", "CPT", "HCPCS") nearest before each position: every label found once, then a binary search. */
function labelsBefore(text: string): (position: number) => string | undefined {
  const labels = [...text.matchAll(LABEL_WORD)].map((match) => ({ end: match.index + match[0].length, label: match[1]!.toUpperCase() }));
  return (position) => {
    let lo = 0;
    let hi = labels.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (labels[mid]!.end <= position) lo = mid + 1;
      else hi = mid;
    }
    return labels[lo - 1]?.label;
  };
}

/** Every code-shaped token in `text`, with the system its shape (or nearest label) says. */
function codeShapes(text: string): Found[] {
  const found: Found[] = [];
  const taken = new Spans(text.length);
  const labelBefore = labelsBefore(text);
  for (const { system, pattern, ambiguous } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index!;
      const end = start + match[0].length;
      if (taken.overlaps(start, end)) continue;
      taken.add(start, end);
      // "M1711" fits both ICD-10 (no dot) and HCPCS: the nearest label before it decides.
      const label = ambiguous ? labelBefore(start) : undefined;
      found.push({ system: label === 'ICD' ? 'icd10' : label ? 'cpt' : system, code: match[0], start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The code-shaped tokens of the request's own values: the model repeating them invents nothing. */
function suppliedTokens(values: string[] = []): Set<string> {
  return new Set(values.flatMap((value) => [normalize(value.trim()), ...codeShapes(value).map((f) => normalize(f.code))]));
}

function findInText(text: string, supplied: Set<string>): Found[] {
  const excluded = new Spans(text.length);
  for (const { pattern } of EXCLUSIONS) for (const match of text.matchAll(pattern)) excluded.add(match.index, match.index + match[0].length);
  return codeShapes(text).filter((f) => !supplied.has(normalize(f.code)) && !excluded.overlaps(f.start, f.end));
}

const LABEL = String.raw`(?:ICD[- ]?10(?:[- ]?CM)?|CPT(?:\/HCPCS)?|HCPCS)(?:\s+codes?)?`;
/** Where a removed code stood, until the sentence around it is mended (a private-use character). */
const GONE = '\uE002';
const G = GONE;
const SENTENCE_START = String.raw`(^|[.!?]["'”’)]*\s+)`;
/** Mends what a removed code leaves, in order: sentences about it, list separators, labels, brackets, spaces. */
const TIDY: Array<[RegExp, string]> = [
  // "G89.29 is also documented." and "Secondary diagnosis: G89.29." say nothing once the code goes.
  [new RegExp(String.raw`${SENTENCE_START}(?:${G}|[^.!?:${G}]*:\s*${G}(?:\s*(?:,|;|and|or)\s*${G})*\s*(?=[.!?]|$))[^.!?]*(?:[.!?]+|$)\s*`, 'gi'), '$1'],
  // "M17.11 and G89.29", "G89.29 or M17.11", "M17.11, G89.29, E11.9", "pain, G89.29, and": the list closes over the gap.
  [new RegExp(String.raw`\s*[,;]\s*${G}\s*[,;]\s*(?=(?:and|or)\s)`, 'gi'), ' '],
  [new RegExp(String.raw`\s*[,;]?\s*\b(?:and|or)\s+${G}`, 'gi'), ''],
  [new RegExp(String.raw`${G}\s*[,;]?\s*(?:and|or)\s+`, 'gi'), ''],
  [new RegExp(String.raw`\s*[,;]\s*${G}`, 'g'), ''],
  [new RegExp(String.raw`${G}\s*[,;]\s*`, 'g'), ''],
  [new RegExp(G, 'g'), ''],
  [new RegExp(String.raw`\(\s*(?:${LABEL}\s*[:#]?\s*)?[,;\s]*\)`, 'gi'), ''],
  [new RegExp(String.raw`\b${LABEL}\s*[:#]?\s*(?=[.,;)]|$)`, 'gi'), ''],
  [/\(\s*[,;]\s*/g, '('],
  [/\s*[,;]\s*(?=[,.;)]|$)/g, ''],
  [/ {2,}/g, ' '],
  [/ +(?=[.,;)])/g, ''],
];

function mergeRuns(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    if (run.text === '') continue;
    const last = out[out.length - 1];
    if (last && !last.marker && !run.marker && last.style === run.style) last.text += run.text;
    else out.push({ ...run });
  }
  return out;
}

/** How far before a code its description is looked for (a description is at most 100 characters). */
const DESCRIBE_WINDOW = 1000;

/** A short description next to the code at `at` in the block: "osteoarthritis, right knee (M17.11)" or "M17.11 – osteoarthritis". */
function describe(blockText: string, code: string, at: number): string | undefined {
  const after = /^\s*[-–—:]\s*([^.;()\n[\]]{3,100})/.exec(blockText.slice(at + code.length, at + code.length + DESCRIBE_WINDOW));
  if (after) return after[1].trim();
  const from = Math.max(0, at - DESCRIBE_WINDOW);
  const bracket = blockText.slice(from, at).lastIndexOf('(');
  const open = bracket < 0 ? -1 : from + bracket;
  if (open >= 0 && !blockText.slice(open, at).includes(')')) {
    // The noun phrase before the bracket: after the last "X is under care for", "approval of", ": "…
    const before = blockText
      .slice(Math.max(0, open - DESCRIBE_WINDOW), open)
      .split(/[.;:]\s|\n|\)\s*(?:,|and\b|or\b)?|\s(?:for|is|has|are|approval of|diagnosed with|requesting|request)\s/i)
      .pop()!
      .trim();
    const clause = before.replace(/^(?:[-*]\s*)?(?:(?:and|with|of|for|the|a|an|approval of)\s+)*/i, '').trim();
    if (clause.length >= 3 && clause.length <= 100 && /\p{L}/u.test(clause)) return clause;
  }
  return undefined;
}

export function verifyCodes(blocks: Block[], evidence: CodeEvidence): VerifiedBody {
  const entries: Record<CodeSystem, Map<string, CodeEntry>> = { icd10: new Map(), cpt: new Map() };
  const removed = new Set<string>();
  const checkable = evidence.pages !== null;
  const supplied = suppliedTokens(evidence.supplied);
  const search = evidence.search ?? searchNotes(evidence.pages);
  // Each distinct code is looked up once: its pages are the same wherever the answer repeats it.
  const pagesOf = new Map<string, number[]>();
  const lookUp = (key: string): number[] => {
    const known = pagesOf.get(key);
    if (known) return known;
    const pages = search.codePages(key);
    pagesOf.set(key, pages);
    return pages;
  };

  const out = blocks.map((block): Block => {
    if (block.kind === 'rule') return block;
    const blockText = runsText(block.runs.filter((run) => !run.marker));
    let changed = false;
    let offset = 0;
    const runs = block.runs.map((run): Run => {
      if (run.marker) return run;
      const runStart = offset;
      offset += run.text.length;
      const parts: string[] = [];
      let kept = 0;
      for (const found of findInText(run.text, supplied)) {
        const key = normalize(found.code);
        const pages = lookUp(key);
        if (checkable && pages.length === 0) {
          removed.add(found.code);
          parts.push(run.text.slice(kept, found.start), GONE);
          kept = found.end;
          continue;
        }
        if (!entries[found.system].has(key)) {
          const description = describe(blockText, found.code, runStart + found.start);
          entries[found.system].set(key, { code: found.code, ...(description ? { description } : {}), pages: [...pages] });
        }
      }
      if (parts.length === 0) return run;
      changed = true;
      parts.push(run.text.slice(kept));
      return { ...run, text: parts.join('') };
    });
    if (!changed) return { ...block, runs };
    // Twice: a label emptied in a bold run can leave "(" and ")" to meet only after the runs merge.
    const tidy = (list: Run[]) =>
      mergeRuns(list).map((run) => (run.marker ? run : { ...run, text: TIDY.reduce((text, [pattern, to]) => text.replace(pattern, to), run.text) }));
    const mended = mergeRuns(tidy(tidy(runs))).filter((run, index, all) => run.text.trim() !== '' || (index > 0 && index < all.length - 1));
    // A removed last sentence leaves the space that stood before it.
    const last = mended[mended.length - 1];
    if (last && !last.marker) mended[mended.length - 1] = { ...last, text: last.text.trimEnd() };
    return { ...block, runs: mended };
  });

  const list = (map: Map<string, CodeEntry>) => [...map.values()];
  return {
    blocks: out.filter((block) => block.kind === 'rule' || block.runs.some((run) => !run.marker && run.text.trim() !== '')),
    codes: { icd10: list(entries.icd10), cpt: list(entries.cpt) },
    removed: [...removed],
  };
}
