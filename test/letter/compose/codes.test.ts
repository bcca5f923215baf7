import { describe, it, expect } from '@jest/globals';
import { parseLetterMarkdown, runsText, type Block } from '../../../lib/letter/compose/body-markdown.js';
import { verifyCodes } from '../../../lib/letter/compose/codes.js';

const text = (blocks: Block[]) => blocks.map((b) => (b.kind === 'rule' ? '---' : runsText(b.runs))).join('\n');
const PAGES = ['Dx: primary osteoarthritis, right knee, m17.11. Plan: TKA.', 'Procedure 27447 planned; brace L1832 supplied. Hypertension I10.'];

describe('verifyCodes', () => {
  it('keeps codes the notes hold (case and the ICD-10 dot ignored) with their pages', () => {
    const { codes, removed, blocks } = verifyCodes(
      parseLetterMarkdown(
        'Osteoarthritis of the right knee (ICD-10 M1711) and hypertension (ICD-10: I10). Requested: TKA (CPT 27447); knee brace (HCPCS L1832).',
      ),
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
    const { codes, removed, blocks } = verifyCodes(
      parseLetterMarkdown('Chronic pain (**ICD-10 G89.29**) and knee pain (M17.11).\n\nRequested: TKA (CPT 27447, 27486).'),
      {
        pages: PAGES,
      },
    );
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

  it('leaves alone what is plainly not a code: a vitamin, a quantity with its unit, a money amount', () => {
    const input = 'Vitamin B12 was normal; 12345 steps a day; cost $28,500.00.';
    const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown(input), { pages: PAGES });
    expect(codes).toEqual({ icd10: [], cpt: [] });
    expect(removed).toEqual([]);
    expect(text(blocks)).toBe(input);
  });

  describe('bare codes (no "CPT" or "ICD-10" label)', () => {
    it("lists a bare CPT code the notes hold, with its pages (the issue's sample letter)", () => {
      const input = 'We request approval of 27447 Total knee arthroplasty.';
      const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown(input), { pages: PAGES });
      expect(removed).toEqual([]);
      expect(codes.cpt).toEqual([{ code: '27447', pages: [2] }]);
      expect(text(blocks)).toBe(input);
    });

    it('removes an invented bare CPT code with a notice-worthy entry, and the sentence still reads', () => {
      const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown('We request approval of 27448 and 27447 for the right knee. Walking is limited.'), {
        pages: PAGES,
      });
      expect(removed).toEqual(['27448']);
      expect(codes.cpt.map((c) => c.code)).toEqual(['27447']);
      expect(text(blocks)).toBe('We request approval of 27447 for the right knee. Walking is limited.');
    });

    it('reads a code before a one-letter side as a code, not a quantity', () => {
      const { removed } = verifyCodes(parseLetterMarkdown('Approval of 27447 R knee and 27448 L knee.'), { pages: PAGES });
      expect(removed).toEqual(['27448']);
    });

    it('removes a sentence that was only about an invented bare code', () => {
      const { removed, blocks } = verifyCodes(parseLetterMarkdown('Knee pain. 27448 was also performed. Walking is limited.'), { pages: PAGES });
      expect(removed).toEqual(['27448']);
      expect(text(blocks)).toBe('Knee pain. Walking is limited.');
    });

    it('reads HCPCS (a letter and 4 digits) and CPT Category II (4 digits and F)', () => {
      const pages = [...PAGES, 'Blood pressure controlled, 3074F reported.'];
      const { codes, removed, blocks } = verifyCodes(
        parseLetterMarkdown('A brace L1832 was supplied; 3074F was reported; E0114 crutches and 3075F were not.'),
        { pages },
      );
      expect(codes.cpt).toEqual([
        { code: 'L1832', pages: [2] },
        { code: '3074F', pages: [3] },
      ]);
      expect(removed).toEqual(['E0114', '3075F']);
      expect(text(blocks)).not.toMatch(/E0114|3075F/);
    });

    it('reads ICD-10 with and without its dot, and removes one the notes lack', () => {
      const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown('Knee osteoarthritis M17.11 with hypertension I10. E119 and G89.29 are also noted.'), {
        pages: PAGES,
      });
      expect(codes.icd10).toEqual([
        { code: 'M17.11', pages: [1] },
        { code: 'I10', pages: [2] },
      ]);
      expect(removed).toEqual(['E119', 'G89.29']);
      expect(text(blocks)).toBe('Knee osteoarthritis M17.11 with hypertension I10.');
    });

    it.each([
      ['money', 'The visit cost $12,345, billed as 27448.00 or 27449 USD (USD 27450).'],
      ['dates', 'Seen 01-15-2025 and 2025-01-15, again on 1/15/25.'],
      ['phones', 'Call (555) 274-4812 or +1 555 274 4812, ext. 27448; fax: 555 27448.'],
      ['ZIP codes', 'The clinic is in Springfield, IL 62704, ZIP 62705, or 62706-1234.'],
      ['quantities and names', 'Walks 10000 steps; WBC 12500 /µL; HbA1c 7.2%; vitamin D25 low; T12-L1 stenosis; H2O intake.'],
    ])('leaves %s alone', (_what, input) => {
      const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown(input), { pages: PAGES });
      expect(removed).toEqual([]);
      expect(codes).toEqual({ icd10: [], cpt: [] });
      expect(text(blocks)).toBe(input);
    });

    it('leaves alone values the request supplied (member id, patient id, cost), and only those', () => {
      const input = 'Member A1234 (patient PT-27450) owes 27451 and 27452.';
      const { codes, removed, blocks } = verifyCodes(parseLetterMarkdown(input), { pages: PAGES, supplied: ['A1234', 'PT-27450', '27451', '1234567893'] });
      expect(removed).toEqual(['27452']);
      expect(codes).toEqual({ icd10: [], cpt: [] });
      expect(text(blocks)).toBe('Member A1234 (patient PT-27450) owes 27451.');
    });

    it('keeps the bare codes of a scan, with no pages', () => {
      const { codes, removed } = verifyCodes(parseLetterMarkdown('Approval of 27448 for M17.11 and E119; brace L1832.'), { pages: null });
      expect(removed).toEqual([]);
      expect(codes.cpt).toEqual([
        { code: '27448', pages: [] },
        { code: 'L1832', pages: [] },
      ]);
      expect(codes.icd10).toEqual([
        { code: 'M17.11', pages: [] },
        { code: 'E119', pages: [] },
      ]);
    });
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
