import { describe, expect, it } from '@jest/globals';
import { checkDenial, readCriteriaAnswer, type CitationEvidence, type OtherDocuments } from '../../../lib/letter/compose/index.js';
import { searchNotes } from '../../../lib/letter/intake/index.js';
import type { Message } from '../../../lib/upstream/anthropic.js';

// The criteria and denial sections of the model's answer (docs/letter.md#the-criteria-layout), read and
// checked against each document's own text layer.

const NOTES = ['Imaging: flexion-extension radiographs show 5 mm anterolisthesis.', 'Physical therapy for 6 months without relief.'];
const POLICY = ['1. Instability documented on flexion-extension radiographs.\n2. Failure of 6 months of conservative care.'];
const DENIAL = ['Reason for denial: criteria not met. Codes: CO-50, CO-999, N115. Appeal by 09/01/2026.'];

const evidence = (pages: string[]): CitationEvidence => ({ pages, pageCount: pages.length, search: searchNotes(pages) });
const notes = evidence(NOTES);
const others: OtherDocuments = { policy: { index: 1, evidence: evidence(POLICY) }, denial: { index: 2, evidence: evidence(DENIAL) } };

const cite = (text: string, page: number, documentIndex: number) => ({
  type: 'page_location',
  cited_text: text,
  document_index: documentIndex,
  document_title: null,
  start_page_number: page,
  end_page_number: page + 1,
});
type Piece = string | [string, ReturnType<typeof cite>];
const messageOf = (pieces: Piece[]): Message =>
  ({
    id: 'msg_test',
    type: 'message',
    role: 'assistant',
    model: 'test',
    stop_reason: 'end_turn',
    content: pieces.map((piece) =>
      typeof piece === 'string' ? { type: 'text', text: piece, citations: null } : { type: 'text', text: piece[0], citations: [piece[1]] },
    ),
  }) as unknown as Message;
const message = (...pieces: Piece[]): Message => messageOf(pieces);

describe('the criteria section', () => {
  it('keeps the body apart, reads each criterion, and downgrades met without a notes passage found in the notes', () => {
    const answer = readCriteriaAnswer(
      message(
        'The body of the letter.\n\n=== CRITERIA ===\nCRITERION: ',
        ['Instability documented on flexion-extension radiographs.', cite('1. Instability documented on flexion-extension radiographs.', 1, 1)],
        '\nSTATUS: met\nEVIDENCE: ',
        ['Radiographs show anterolisthesis.', cite('Imaging: flexion-extension radiographs show 5 mm anterolisthesis.', 1, 0)],
        '\n\nCRITERION: ',
        ['Failure of 6 months of conservative care.', cite('2. Failure of 6 months of conservative care.', 1, 1)],
        '\nSTATUS: met\nEVIDENCE: ',
        ['Six months of therapy.', cite('Six months of supervised therapy with complete relief.', 2, 0)],
        '\n',
      ),
      notes,
      others,
    );
    expect(answer.body.content.map((block) => (block as { text: string }).text).join('')).toBe('The body of the letter.\n\n');
    expect(answer.criteria).toEqual([
      {
        criterion: 'Instability documented on flexion-extension radiographs.',
        policyPages: [1],
        status: 'met',
        evidence: [{ page: 1, citedText: 'Imaging: flexion-extension radiographs show 5 mm anterolisthesis.' }],
      },
      // Its only notes citation is not in the notes: met becomes unclear, and the evidence is missing.
      { criterion: 'Failure of 6 months of conservative care.', policyPages: [1], status: 'unclear', evidence: [] },
    ]);
    expect(answer.missingEvidence).toEqual([
      'The notes do not show, with a passage found in them, that this criterion is met: Failure of 6 months of conservative care.',
    ]);
    expect(answer.notFound).toBe(1);
    expect(answer.dropped).toBe(0);
  });

  it('drops a criterion cited from text the policy does not hold, or cited from the notes instead of the policy', () => {
    const answer = readCriteriaAnswer(
      message(
        'Body.\n=== CRITERIA ===\nCRITERION: ',
        ['Patient is over 70.', cite('3. Patient must be over 70 years of age.', 1, 1)],
        '\nSTATUS: not_met\nEVIDENCE: none\nMISSING: Age not shown.\nCRITERION: ',
        ['Radiographs show instability.', cite('Imaging: flexion-extension radiographs show 5 mm anterolisthesis.', 1, 0)],
        '\nSTATUS: met\nEVIDENCE: none\nCRITERION: Uncited criterion.\nSTATUS: met\n',
      ),
      notes,
      others,
    );
    expect(answer.criteria).toEqual([]);
    expect(answer.dropped).toBe(3);
    expect(answer.notFound).toBe(1);
  });

  it("uses the model's MISSING sentence for a criterion it says is not met", () => {
    const answer = readCriteriaAnswer(
      message(
        'Body.\n=== CRITERIA ===\nCRITERION: ',
        ['Failure of 6 months of conservative care.', cite('2. Failure of 6 months of conservative care.', 1, 1)],
        '\nSTATUS: not_met\nEVIDENCE: none\nMISSING: The notes do not say how long conservative care lasted.\n',
      ),
      notes,
      others,
    );
    expect(answer.criteria?.[0]?.status).toBe('not_met');
    expect(answer.missingEvidence).toEqual(['The notes do not say how long conservative care lasted.']);
  });
});

describe('the criteria section, against a careless or hostile model', () => {
  it('reads the layout dressed in markdown (list markers, bold labels)', () => {
    const answer = readCriteriaAnswer(
      message(
        'Body.\n\n=== CRITERIA ===\n- **CRITERION:** ',
        ['Failure of 6 months of conservative care.', cite('2. Failure of 6 months of conservative care.', 1, 1)],
        '\n- **STATUS:** not_met\n- **EVIDENCE**: none\n- **MISSING:** The duration of therapy is not recorded.\n',
      ),
      notes,
      others,
    );
    expect(answer.criteria).toEqual([{ criterion: 'Failure of 6 months of conservative care.', policyPages: [1], status: 'not_met', evidence: [] }]);
    expect(answer.missingEvidence).toEqual(['The duration of therapy is not recorded.']);
  });

  it("shows a criterion in the policy's words even when the model paraphrases it or writes a blank", () => {
    const answer = readCriteriaAnswer(
      message(
        'Body.\n=== CRITERIA ===\nCRITERION: ',
        ['[Insert criterion]', cite('1. Instability documented on flexion-extension radiographs.', 1, 1)],
        '\nSTATUS: unclear\nEVIDENCE: none\nMISSING: Not shown.\n',
      ),
      notes,
      others,
    );
    expect(answer.criteria?.map((c) => c.criterion)).toEqual(['Instability documented on flexion-extension radiographs.']);
  });

  it('reads at most 30 criteria and looks up at most 100 passages for all the sections together', () => {
    let lookups = 0;
    const search = searchNotes(POLICY);
    const counted: OtherDocuments = {
      ...others,
      policy: {
        index: 1,
        evidence: { pages: POLICY, pageCount: 1, search: { ...search, passageOn: (page, passage) => ++lookups > 0 && search.passageOn(page, passage) } },
      },
    };
    const pieces: Piece[] = ['Body.\n=== CRITERIA ===\n'];
    for (let i = 0; i < 20_000; i += 1) {
      pieces.push('CRITERION: ');
      for (let j = 0; j < 5; j += 1) pieces.push([`Criterion ${i}.`, cite(`Passage ${i}-${j} the policy does not hold.`, 1, 1)]);
      pieces.push('\nSTATUS: met\n');
    }
    const answer = readCriteriaAnswer(messageOf(pieces), notes, counted);
    expect(answer.criteria).toEqual([]);
    expect(answer.dropped).toBe(30);
    expect(lookups).toBe(100);
  });
});

describe('the denial section', () => {
  const read = (...pieces: Piece[]) => checkDenial(readCriteriaAnswer(message('Body.\n', ...pieces), notes, others).denial, DENIAL);

  it('keeps codes the denial holds and the X12 lists know, and a deadline the denial states', () => {
    expect(
      read(
        '=== DENIAL ===\nREASON: ',
        ['criteria not met.', cite('Reason for denial: criteria not met.', 1, 2)],
        '\nCARC: CO-50, CO-999, CO-197\nRARC: N115, M127\nDEADLINE: 09/01/2026\n',
      ),
    ).toEqual({
      reason: 'criteria not met.',
      // 999 is in the denial but in no list; 197 is in the list but not in the denial; M127 likewise.
      carcCodes: [{ code: '50', description: "These are non-covered services because this is not deemed a 'medical necessity' by the payer." }],
      rarcCodes: [{ code: 'N115', description: 'This decision was based on a Local Coverage Determination (LCD).' }],
      appealDeadline: '09/01/2026',
    });
  });

  it('never keeps a reason whose citation is not in the denial, nor a deadline the denial does not state', () => {
    expect(
      read('=== DENIAL ===\nREASON: ', ['Experimental treatment.', cite('Denied as experimental.', 1, 2)], '\nCARC: none\nRARC: none\nDEADLINE: 12/31/2026\n'),
    ).toEqual({
      reason: 'The denial reason could not be confirmed in the denial letter',
      carcCodes: [],
      rarcCodes: [],
    });
  });
});
