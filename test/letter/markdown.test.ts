import { describe, it, expect } from '@jest/globals';
import { assembleLetter, escapeMarkdown } from '../../lib/letter/markdown.js';
import type { LetterMetadata } from '../../lib/letter/types.js';

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

describe('assembleLetter', () => {
  const letter = assembleLetter(meta, BODY, DATE);

  it('puts header, patient block, body and signature in order', () => {
    const order = ['# Riverside Orthopedics', 'Phone: \\+1 \\(555\\) 010-2000', 'E-mail: dr\\_lee@riverside.example', 'Date: March 5, 2026',
      '### Patient Information', "- **Name:** José Núñez-O'Brien", '- **Age:** 47', '- **Patient identifier:** PAT-0001',
      '## Diagnosis', '- item two', '/s/ Dana Lee', 'Dana Lee, MD'];
    const positions = order.map((part) => letter.indexOf(part));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('keeps the body verbatim and the signature after it, name last', () => {
    expect(letter).toContain(BODY);
    expect(letter.trimEnd().endsWith('/s/ Dana Lee  \nDana Lee, MD')).toBe(true);
  });

  it('uses the UTC date', () => expect(assembleLetter(meta, BODY, new Date('2026-12-31T23:59:59Z'))).toContain('Date: December 31, 2026'));

  it('escapes markdown in metadata so it cannot break the structure', () => {
    const hostile = assembleLetter({ ...meta, patient_name: '**Bob**\n# Injected\n[x](http://e)', facility_name: '<b>Clinic</b>' }, BODY, DATE);
    expect(hostile).not.toMatch(/^# Injected/m);
    expect(hostile).toContain('- **Name:** \\*\\*Bob\\*\\* \\# Injected \\[x\\]\\(http://e\\)');
    expect(hostile).toContain('# \\<b\\>Clinic\\</b\\>');
  });

  it('escapes list and numbered markers at the start of a value', () => {
    expect(escapeMarkdown('- dash')).toBe('\\- dash');
    expect(escapeMarkdown('+ plus')).toBe('\\+ plus');
    expect(escapeMarkdown('1. first')).toBe('1\\. first');
  });
});
