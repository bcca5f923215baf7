import { describe, it, expect } from '@jest/globals';
import { buildLetterUserContent, CANNOT_WRITE_SENTINEL, LETTER_SYSTEM_PROMPT } from '../../lib/letter/prompt.js';

describe('letter prompt', () => {
  it('sends the PDF as a base64 document block, then the metadata as labelled text', () => {
    const [document, text] = buildLetterUserContent('JVBERi0=', {
      patient_name: 'Ada\nLovelace',
      patient_age: '47',
      patient_identifier: 'PAT-1',
      facility_name: 'Riverside',
      visit_cost: '$10.00',
    });
    expect(document).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } });
    expect(text.type).toBe('text');
    const body = (text as { text: string }).text;
    for (const line of ['- Patient name: Ada Lovelace', '- Patient age: 47', '- Patient identifier: PAT-1', '- Facility: Riverside', '- Cost of the visit or procedure: $10.00']) {
      expect(body).toContain(line);
    }
  });

  it('states the rules the output gate relies on', () => {
    expect(LETTER_SYSTEM_PROMPT).toMatch(/untrusted DATA/);
    expect(LETTER_SYSTEM_PROMPT).toMatch(/Never invent/);
    expect(LETTER_SYSTEM_PROMPT).toMatch(/ONLY the letter body/);
    expect(LETTER_SYSTEM_PROMPT).toMatch(/ICD-10/);
    expect(LETTER_SYSTEM_PROMPT).toMatch(/CPT/);
    expect(LETTER_SYSTEM_PROMPT).toContain(`${CANNOT_WRITE_SENTINEL}: <short reason`);
  });
});
