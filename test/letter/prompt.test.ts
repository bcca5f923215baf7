import { describe, it, expect } from '@jest/globals';
import { buildLetterRequest, buildLetterUserContent, CANNOT_WRITE_SENTINEL, LETTER_SYSTEM_PROMPT } from '../../lib/letter/prompt.js';

describe('letter prompt', () => {
  it('sends the PDF as a base64 document block, then the metadata as labelled text', () => {
    const [document, text] = buildLetterUserContent('JVBERi0=', {
      patient_name: 'Ada\nLovelace',
      patient_age: '47',
      patient_identifier: 'PAT-1',
      facility_name: 'Riverside',
      visit_cost: '$10.00',
    });
    expect(document).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      title: 'Procedure notes',
      citations: { enabled: true },
    });
    expect(text.type).toBe('text');
    const body = (text as { text: string }).text;
    for (const line of [
      '- Patient name: Ada Lovelace',
      '- Patient age: 47',
      '- Patient identifier: PAT-1',
      '- Facility: Riverside',
      '- Cost of the visit or procedure: $10.00',
    ]) {
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

  it('marks the system prompt for caching and names the model', () => {
    const request = buildLetterRequest('claude-x', 'JVBERi0=', {
      patient_name: 'A',
      patient_age: '1',
      patient_identifier: 'P',
      facility_name: 'F',
      visit_cost: '$1',
    });
    expect(request.model).toBe('claude-x');
    expect(request.system).toEqual([{ type: 'text', text: LETTER_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]);
  });
});
