import type { NotesLine, SandboxBlock } from './messages-types.js';

/**
 * The sandbox's answer for a policy-grounded letter (docs/letter.md#the-criteria-layout): a paragraph
 * per policy criterion arguing it from the notes, then the "=== CRITERIA ===" and "=== DENIAL ==="
 * sections in the fixed plain-text layout the service parses, every field cited into its own
 * document (document_index 0 the notes, then the policy, then the denial, as the request orders
 * them). Deterministic: a criterion is met when a notes line shares at least two of its significant
 * words, else not met. Markers: SANDBOX:INVENTED_CRITERION adds a criterion whose cited text is not
 * in the policy (the service must drop it).
 */

export interface CriteriaInputs {
  notes: NotesLine[];
  policy?: { index: number; title: string | null; lines: NotesLine[] };
  denial?: { index: number; title: string | null; lines: NotesLine[] };
  inventCriterion?: boolean;
}

const STOP = new Set(['documented', 'least', 'before', 'including', 'following', 'criteria', 'considered', 'significant', 'months', 'weeks']);
const words = (text: string) => new Set((text.toLowerCase().match(/[a-z]{5,}/g) ?? []).filter((word) => !STOP.has(word)));

const cite = (line: NotesLine, documentIndex: number, title: string | null) => ({
  type: 'page_location' as const,
  cited_text: line.text,
  document_index: documentIndex,
  document_title: title,
  start_page_number: line.page,
  end_page_number: line.page + 1,
});

/** The notes line that best supports `criterion` (two or more shared significant words), if any. */
function support(criterion: string, notes: NotesLine[]): NotesLine | undefined {
  const wanted = words(criterion);
  let best: { line: NotesLine; score: number } | undefined;
  for (const line of notes) {
    const score = [...words(line.text)].filter((word) => wanted.has(word)).length;
    if (score >= 2 && (!best || score > best.score)) best = { line, score };
  }
  return best?.line;
}

/** The body paragraphs (before the sections) and the sections, as cited text blocks. */
export function criteriaBlocks({ notes, policy, denial, inventCriterion }: CriteriaInputs): { body: SandboxBlock[]; sections: SandboxBlock[] } {
  const body: SandboxBlock[] = [];
  const sections: SandboxBlock[] = [];
  const text = (into: SandboxBlock[], value: string) => into.push({ type: 'text', text: value });
  const cited = (into: SandboxBlock[], value: string, citation: ReturnType<typeof cite>) => into.push({ type: 'text', text: value, citations: [citation] });

  const reason = denial?.lines.find((line) => /Reason for denial:/i.test(line.text));
  if (denial && reason) {
    text(body, '\n\n## The Denial\n\nThe denial states that ');
    cited(
      body,
      reason.text.replace(/^.*?Reason for denial:\s*/i, '').replace(/^./, (c) => c.toLowerCase()),
      cite(reason, denial.index, denial.title),
    );
    text(body, ' The clinical record answers this reason criterion by criterion below.');
  }
  const criteria = policy ? policy.lines.filter((line) => /^\d+\.\s/.test(line.text)) : [];
  if (policy && criteria.length) {
    text(body, "\n\n## The Policy's Criteria\n");
    text(sections, '\n\n=== CRITERIA ===\n');
    for (const criterion of criteria) {
      const words = criterion.text.replace(/^\d+\.\s*/, '');
      const evidence = support(words, notes);
      text(body, '\n- ');
      cited(body, `The policy requires: ${words}`, cite(criterion, policy.index, policy.title));
      if (evidence) {
        text(body, ' The notes document it: ');
        cited(body, evidence.text, cite(evidence, 0, null));
      } else {
        text(body, ' The notes do not document this yet.');
      }
      text(sections, 'CRITERION: ');
      cited(sections, words, cite(criterion, policy.index, policy.title));
      text(sections, `\nSTATUS: ${evidence ? 'met' : 'not_met'}\nEVIDENCE: `);
      if (evidence) cited(sections, evidence.text, cite(evidence, 0, null));
      else text(sections, 'none');
      text(sections, evidence ? '\n\n' : `\nMISSING: The notes do not document this criterion: ${words}\n\n`);
    }
    if (inventCriterion) {
      text(sections, 'CRITERION: ');
      cited(sections, 'Patient must be over 70 years of age.', cite({ page: 1, text: '6. Patient must be over 70 years of age.' }, policy.index, policy.title));
      text(sections, '\nSTATUS: not_met\nEVIDENCE: none\nMISSING: The notes do not show the patient is over 70.\n\n');
    }
  }
  if (denial) {
    const all = denial.lines.map((line) => line.text).join('\n');
    const deadline = /\bby (\d{2}\/\d{2}\/\d{4})/.exec(all)?.[1];
    text(sections, '=== DENIAL ===\nREASON: ');
    if (reason) cited(sections, reason.text.replace(/^.*?Reason for denial:\s*/i, ''), cite(reason, denial.index, denial.title));
    else text(sections, 'not stated');
    text(sections, `\nCARC: ${(all.match(/\b(?:CO|PR|OA|PI|CR)-\d{1,3}\b/g) ?? []).join(', ') || 'none'}`);
    text(sections, `\nRARC: ${(all.match(/\b(?:MA|N|M)\d{1,3}\b/g) ?? []).join(', ') || 'none'}`);
    text(sections, `\nDEADLINE: ${deadline ?? 'none'}\n`);
  }
  return { body, sections };
}
