import { describe, it, expect } from '@jest/globals';
import { parseLetterMarkdown } from '../../../lib/letter/compose/body-markdown.js';
import { assembleLetter as assemble } from '../../../lib/letter/render/markdown.js';
import { escapeMarkdown } from '../../../lib/letter/compose/plain-text.js';
import type { LetterMetadata } from '../../../lib/letter/index.js';

const meta: LetterMetadata = {
  patient_identifier: 'PAT-0001',
  patient_name: "José Núñez-O'Brien",
  patient_age: '47',
  facility_name: 'Riverside Orthopedics',
  visit_cost: '$32,000.00',
  provider_email: 'dr_lee@riverside.example',
  provider_phone: '+1 (555) 010-2000',
  provider_signature: '/s/ Dana Lee',
  provider_name: 'Dana Lee, MD',
};
const BODY = '## Diagnosis\n\nOsteoarthritis (**M17.11**).\n\n- item one\n- item two';
const DATE = new Date('2026-03-05T23:30:00Z');
const assembleLetter = (m: LetterMetadata, body: string, generatedAt: Date, citations: Array<{ page: number; citedText: string }> = []) =>
  assemble({ meta: m, body: parseLetterMarkdown(body), citations, generatedAt });

describe('assembleLetter', () => {
  const letter = assembleLetter(meta, BODY, DATE);

  it('puts header, patient block, body and signature in order', () => {
    const order = [
      '# Riverside Orthopedics',
      'Phone: +1 (555) 010-2000',
      'E-mail: dr_lee@riverside.example',
      'Date: March 5, 2026',
      '### Patient Information',
      "- **Name:** José Núñez-O'Brien",
      '- **Age:** 47',
      '- **Patient identifier:** PAT-0001',
      '## Diagnosis',
      '- item two',
      '/s/ Dana Lee',
      'Dana Lee, MD',
    ];
    const positions = order.map((part) => letter.indexOf(part));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('writes the body back from its parsed blocks, signature after it, name last', () => {
    expect(letter).toContain('## Diagnosis\n\nOsteoarthritis (**M17.11**).\n\n- item one\n- item two');
    expect(letter.trimEnd().endsWith('/s/ Dana Lee  \nDana Lee, MD')).toBe(true);
  });

  it('uses the UTC date', () => expect(assembleLetter(meta, BODY, new Date('2026-12-31T23:59:59Z'))).toContain('Date: December 31, 2026'));

  it('escapes markdown in metadata so it cannot break the structure', () => {
    const hostile = assembleLetter({ ...meta, patient_name: '**Bob**\n# Injected\n[x](http://e)', facility_name: '<b>Clinic</b>' }, BODY, DATE);
    expect(hostile).not.toMatch(/^# Injected/m);
    expect(hostile).toContain('- **Name:** \\*\\*Bob\\*\\* # Injected \\[x\\](http://e)');
    expect(hostile).toContain('# &lt;b>Clinic&lt;/b>');
    expect(hostile).not.toContain('<');
  });

  it('leaves a phone, an e-mail and an underscore id as typed', () => {
    expect(escapeMarkdown('+1 555 0100')).toBe('+1 555 0100');
    expect(escapeMarkdown('dr_lee@riverside.example')).toBe('dr_lee@riverside.example');
    expect(escapeMarkdown('ID_42 (primary)')).toBe('ID_42 (primary)');
    expect(escapeMarkdown('_emphasis_')).toBe('\\_emphasis\\_');
  });

  it('keeps javascript: and data: out of metadata', () => {
    const letter = assembleLetter({ ...meta, facility_name: 'javascript:alert(1) Clinic', provider_name: 'Data: DATA:text/html,x' }, BODY, DATE);
    expect(letter.toLowerCase()).not.toMatch(/javascript:|data:/);
    expect(letter).toContain('# Clinic');
  });

  it('adds a Re: block with only the given lines, and a source list with the cited pages', () => {
    const letter = assembleLetter({ ...meta, member_id: 'M-1', provider_npi: '1234567893' }, BODY, DATE, [
      { page: 2, citedText: 'Knee <b>pain</b> for [14](javascript:x) months' },
    ]);
    expect(letter).toContain("**Re:**  \nPatient: José Núñez-O'Brien  \nMember ID: M-1  \nProvider NPI: 1234567893\n");
    expect(letter).toContain('### Source documentation\n\n- p. 2: “Knee pain for 14 months”');
  });

  it('escapes list and numbered markers only at the start of a line', () => {
    expect(escapeMarkdown('- dash', true)).toBe('\\- dash');
    expect(escapeMarkdown('+ plus', true)).toBe('\\+ plus');
    expect(escapeMarkdown('1. first', true)).toBe('1\\. first');
    expect(escapeMarkdown('# heading', true)).toBe('\\# heading');
    expect(escapeMarkdown('+1 555 0100', true)).toBe('+1 555 0100');
    expect(escapeMarkdown('- dash')).toBe('- dash');
  });
});
