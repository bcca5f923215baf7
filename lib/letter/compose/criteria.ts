import type { Message } from '../../runtime/index.js';
import { readCitedText, type Citation, type CitationEvidence, type OtherDocuments } from './citations.js';
import { cleanModelText } from './plain-text.js';

/**
 * The criteria and denial sections of the model's answer (docs/letter.md#the-criteria-layout).
 * Citations cannot be combined with structured output, so the model writes, after the letter body,
 * one cited plain-text section in a fixed layout:
 *
 *     === CRITERIA ===
 *     CRITERION: <the criterion in the policy's words, cited from the policy>
 *     STATUS: met | not_met | unclear
 *     EVIDENCE: <what the notes show, cited from the notes>
 *     MISSING: <one sentence: what the notes lack, when not met or unclear>
 *     === DENIAL ===
 *     REASON: <the denial's stated reason, cited from the denial>
 *     CARC: <codes as the denial writes them>   RARC: <codes>   DEADLINE: <date as written, or none>
 *
 * Each field's citations are checked like the body's, against their own document's text layer: a
 * criterion whose policy citation is not found is dropped (the caller adds CITATION_NOT_FOUND), and
 * `met` without a verified notes citation becomes `unclear`.
 */

export const CRITERIA_HEADING = '=== CRITERIA ===';
export const DENIAL_HEADING = '=== DENIAL ===';

export type CriterionStatus = 'met' | 'not_met' | 'unclear';

export interface Criterion {
  criterion: string;
  policyPages: number[];
  status: CriterionStatus;
  evidence: Citation[];
}

/** What the denial section says, before its codes are checked against the denial and the X12 lists. */
export interface DenialFields {
  reason?: string;
  reasonCited: boolean;
  carc: string[];
  rarc: string[];
  deadline?: string;
}

export interface CriteriaAnswer {
  /** The answer without its sections: the letter body. */
  body: Message;
  criteria: Criterion[];
  /** One plain sentence per criterion not met or unclear. */
  missingEvidence: string[];
  /** Criteria dropped because their policy citation was not found (or they had none). */
  dropped: number;
  /** Section citations dropped (not found in their document). */
  notFound: number;
  denial?: DenialFields;
}

/** No policy has more criteria than this in one letter; each field is a sentence or two. */
const MAX_CRITERIA = 30;
const MAX_FIELD_CHARS = 600;
const MAX_EVIDENCE = 10;

type Block = Message['content'][number];
/** A field's label, as the layout writes it or dressed in markdown ("- **STATUS:** met", "**CARC**: …"). */
const FIELD = /^\s*(?:[-*]\s+)?\**(CRITERION|STATUS|EVIDENCE|MISSING|REASON|CARC|RARC|DEADLINE)\**\s*:\s*\**\s*/i;

interface Field {
  name: string;
  blocks: Block[];
}

/** The answer's blocks, split at the first section heading: the body before, the fields after. */
function splitSections(message: Message): { body: Block[]; fields: Field[] } {
  const body: Block[] = [];
  const fields: Field[] = [];
  let inSections = false;
  for (const block of message.content) {
    if (block?.type !== 'text' || typeof block.text !== 'string') continue;
    let text = block.text;
    if (!inSections) {
      const at = [CRITERIA_HEADING, DENIAL_HEADING].map((heading) => text.indexOf(heading)).filter((i) => i >= 0);
      if (!at.length) {
        body.push(block);
        continue;
      }
      const start = Math.min(...at);
      if (text.slice(0, start).trim()) body.push({ ...block, text: text.slice(0, start) });
      inSections = true;
      text = text.slice(start);
    }
    // A block may open new fields ("…\nSTATUS: met\nEVIDENCE: ") and its citations belong to the field it ends in.
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const match = FIELD.exec(line);
      if (match) fields.push({ name: match[1]!.toUpperCase(), blocks: [] });
      const rest = match ? line.slice(match[0].length) : line.replace(/^===.*===\s*$/, '');
      const current = fields[fields.length - 1];
      if (!current) return;
      const last = index === lines.length - 1;
      current.blocks.push({ ...block, text: index > 0 && !match ? ` ${rest}` : rest, citations: last ? block.citations : null } as Block);
    });
  }
  return { body, fields };
}

const plain = (text: string) => cleanModelText(text).replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD_CHARS);
const STATUSES: Record<string, CriterionStatus> = { met: 'met', not_met: 'not_met', 'not met': 'not_met', unclear: 'unclear' };

/**
 * A criterion or a denial reason as the letter shows it, always its document's words: the model's
 * text when the document holds it on a cited page, else the first cited passage itself (a leading
 * "1." or "(a)" dropped).
 */
function inDocumentWords(written: string, cited: Citation[], document: OtherDocuments['policy']): string {
  const search = document?.evidence.search;
  if (written && search && cited.some((c) => search.passageOn(c.page, written))) return written;
  return plain(cited[0]!.citedText.replace(/^\s*(?:\d{1,3}[.)]|\([a-z0-9]{1,3}\))\s*/i, ''));
}

/** The sections read and checked; `others` names the policy's and the denial's document index and text. */
export function readCriteriaAnswer(message: Message, notes: CitationEvidence, others: OtherDocuments): CriteriaAnswer {
  const { body, fields } = splitSections(message);
  // One budget of looked-up passages for every field of the sections (at most MAX_CITATIONS in all).
  const budget = { searched: 0 };
  const cite = (field: Field | undefined) =>
    field
      ? readCitedText({ ...message, content: field.blocks }, notes, others, budget)
      : { text: '', citations: [], policyCitations: [], denialCitations: [], notFound: 0, overLimit: 0 };
  let criteriaRead = 0;
  const criteria: Criterion[] = [];
  const missingEvidence: string[] = [];
  let dropped = 0;
  let notFound = 0;
  let denial: DenialFields | undefined;

  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.name === 'CRITERION') {
      // Past MAX_CRITERIA criteria read (kept or dropped), the rest of the section is not read at all.
      if (++criteriaRead > MAX_CRITERIA) break;
      const group: Record<string, Field> = {};
      while (fields[i + 1] && ['STATUS', 'EVIDENCE', 'MISSING'].includes(fields[i + 1]!.name)) group[fields[++i]!.name] = fields[i]!;
      const named = cite(field);
      const evidence = cite(group.EVIDENCE);
      notFound += named.notFound + evidence.notFound;
      const policyPages = [...new Set(named.policyCitations.map((c) => c.page))];
      if (!policyPages.length) {
        dropped += 1;
        continue;
      }
      const criterion = inDocumentWords(plain(named.text.replace(/ ?\uE000[^\uE001]*\uE001/g, '')), named.policyCitations, others.policy);
      const asked = STATUSES[plain(cite(group.STATUS).text).toLowerCase().replace(/\.$/, '')] ?? 'unclear';
      const notesEvidence = evidence.citations.slice(0, MAX_EVIDENCE);
      // `met` needs at least one notes passage found in the notes.
      const status: CriterionStatus = asked === 'met' && !notesEvidence.length ? 'unclear' : asked;
      criteria.push({ criterion, policyPages, status, evidence: notesEvidence });
      if (status !== 'met') {
        const missing = plain(cite(group.MISSING).text.replace(/ ?\uE000[^\uE001]*\uE001/g, ''));
        missingEvidence.push(
          missing && asked !== 'met'
            ? missing
            : `The notes do not show, with a passage found in them, that this criterion is met: ${criterion.replace(/[.;:]$/, '')}.`,
        );
      }
    } else if (['REASON', 'CARC', 'RARC', 'DEADLINE'].includes(field.name)) {
      denial ??= { reasonCited: false, carc: [], rarc: [] };
      const read = cite(field);
      notFound += read.notFound;
      const value = plain(read.text.replace(/ ?\uE000[^\uE001]*\uE001/g, ''));
      if (field.name === 'REASON' && read.denialCitations.length)
        Object.assign(denial, { reason: inDocumentWords(value, read.denialCitations, others.denial), reasonCited: true });
      if (field.name === 'CARC' || field.name === 'RARC')
        denial[field.name === 'CARC' ? 'carc' : 'rarc'].push(
          ...value
            .split(/[\s,;]+/)
            .filter(Boolean)
            .slice(0, 20),
        );
      if (field.name === 'DEADLINE' && value && !/^none\b/i.test(value)) denial.deadline = value;
    }
  }
  return { body: { ...message, content: body }, criteria, missingEvidence, dropped, notFound, ...(denial ? { denial } : {}) };
}
