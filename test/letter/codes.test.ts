import { describe, it, expect } from '@jest/globals';
import { parseLetterMarkdown, runsText, type Block } from '../../lib/letter/body-markdown.js';
import { verifyCodes } from '../../lib/letter/codes.js';

const text = (blocks: Block[]) => blocks.map((b) => (b.kind === 'rule' ? '---' : runsText(b.runs))).join('\n');
const PAGES = ['Dx: primary osteoarthritis, right knee, m17.11. Plan: TKA.', 'Procedure 27447 planned; brace L1832 supplied. Hypertension I10.'];

describe('verifyCodes', () => {
  it('keeps codes the notes hold (case and the ICD-10 dot ignored) with their pages', () => {
    const { codes, removed, blocks } = verifyCodes(
      parseLetterMarkdown('Osteoarthritis of the right knee (ICD-10 M1711) and hypertension (ICD-10: I10). Requested: TKA (CPT 27447); knee brace (HCPCS L1832).'),
      { pages: PAGES },
    );
    expect(removed).toEqual([]);
    expect(codes.icd10).toEqual([
      { code: 'M1711', description: 'Osteoarthritis of the right knee', pages: [1] },
      { code: 'I10', description: 'hypertension', pages: [2] },
    ]);
    expect(codes.cpt).toEqual([
      { code: '27447', description: 'TKA', pages: [2] },
      { code: 'L1832', description: 'knee brace', pages: [2] },
    ]);
    expect(text(blocks)).toContain('(ICD-10 M1711)');
  });

  it('removes a code the notes lack, with the label and brackets it leaves, and names it', () => {
    const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown('Chronic pain (**ICD-10 G89.29**) and knee pain (M17.11).\n\nRequested: TKA (CPT 27447, 27486).'), {
      pages: PAGES,
    });
    expect(removed).toEqual(['G89.29', '27486']);
    expect(text(blocks)).toBe('Chronic pain and knee pain (M17.11).\nRequested: TKA (CPT 27447).');
    expect(codes.icd10.map((c) => c.code)).toEqual(['M17.11']);
  });

  it('reads a dotted ICD-10 code as ICD-10 and five digits as CPT whatever label is nearest', () => {
    const { codes } = verifyCodes(parseLetterMarkdown('TKA (CPT 27447) for knee osteoarthritis M17.11; ICD-10 first, then 27447 again.'), { pages: PAGES });
    expect(codes.icd10.map((c) => c.code)).toEqual(['M17.11']);
    expect(codes.cpt.map((c) => c.code)).toEqual(['27447']);
  });

  it('does not count a cited passage as evidence: a code the notes do not hold is removed', () => {
    // The model cites "page 3" with words the notes do not contain; the citation is no proof.
    const { codes, removed } = verifyCodes(parseLetterMarkdown('Diabetes (ICD-10 E11.9).'), { pages: PAGES });
    expect(removed).toEqual(['E11.9']);
    expect(codes.icd10).toEqual([]);
  });

  it('reads bare numbers and B12-like words as codes only where the code system is named', () => {
    const { codes, removed } = verifyCodes(parseLetterMarkdown('Vitamin B12 was normal; 12345 steps a day; cost $28,500.00.'), { pages: PAGES });
    expect(codes).toEqual({ icd10: [], cpt: [] });
    expect(removed).toEqual([]);
  });

  it('keeps every code of a scan (no text layer), with no pages: nothing in the notes can be read', () => {
    const { codes, removed } = verifyCodes(parseLetterMarkdown('Knee (ICD-10 M17.11), TKA (CPT 27447).'), { pages: null });
    expect(removed).toEqual([]);
    expect(codes.icd10).toEqual([expect.objectContaining({ code: 'M17.11', pages: [] })]);
    expect(codes.cpt).toEqual([expect.objectContaining({ code: '27447', pages: [] })]);
  });

  it.each([
    ['Diagnosis codes M17.11 and G89.29 are documented.', 'Diagnosis codes M17.11 are documented.'],
    ['Diagnosis codes G89.29 or M17.11 apply.', 'Diagnosis codes M17.11 apply.'],
    ['Codes: M17.11, G89.29, E11.9.', 'Codes: M17.11.'],
    ['Knee pain. G89.29 is also documented in the chart. Walking is limited.', 'Knee pain. Walking is limited.'],
    ['Knee pain (M17.11). Secondary diagnosis: G89.29. Walking is limited.', 'Knee pain (M17.11). Walking is limited.'],
    ['The patient also has chronic pain, G89.29, and knee pain.', 'The patient also has chronic pain and knee pain.'],
  ])('removing a code leaves a readable sentence: %j', (input, output) => {
    const { blocks, removed } = verifyCodes(parseLetterMarkdown(input), { pages: PAGES });
    expect(removed.length).toBeGreaterThan(0);
    expect(text(blocks)).toBe(output);
  });
});
