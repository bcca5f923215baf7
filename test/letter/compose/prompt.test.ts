import { describe, it, expect } from '@jest/globals';
import { buildLetterRequest, CANNOT_WRITE_SENTINEL } from '../../../lib/letter/compose/prompt.js';

const META = { patient_name: 'A', patient_age: '1', patient_identifier: 'P', facility_name: 'F', visit_cost: '$1' };
/** The one text block of a request's system prompt. */
const systemPromptOf = (request: ReturnType<typeof buildLetterRequest>) => (request.system as Array<{ text: string }>)[0]!.text;

describe('letter prompt', () => {
  it('sends the PDF as a base64 document block, then the metadata as labelled text', () => {
    const request = buildLetterRequest('claude-x', 'JVBERi0=', {
      patient_name: 'Ada\nLovelace',
      patient_age: '47',
      patient_identifier: 'PAT-1',
      facility_name: 'Riverside',
      visit_cost: '$10.00',
    });
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]!.role).toBe('user');
    const [document, text] = request.messages[0]!.content as Array<{ type: string; text?: unknown }>;
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
    const systemPrompt = systemPromptOf(buildLetterRequest('claude-x', 'JVBERi0=', META));
    expect(systemPrompt).toMatch(/untrusted DATA/);
    expect(systemPrompt).toMatch(/Never invent/);
    expect(systemPrompt).toMatch(/ONLY the letter body/);
    expect(systemPrompt).toMatch(/ICD-10/);
    expect(systemPrompt).toMatch(/CPT/);
    expect(systemPrompt).toContain(`${CANNOT_WRITE_SENTINEL}: <short reason`);
  });

  it('marks the system prompt for caching and names the model', () => {
    const request = buildLetterRequest('claude-x', 'JVBERi0=', META);
    expect(request.model).toBe('claude-x');
    expect(request.system).toEqual([{ type: 'text', text: systemPromptOf(request), cache_control: { type: 'ephemeral' } }]);
    expect(systemPromptOf(request)).toContain(`${CANNOT_WRITE_SENTINEL}: <short reason`);
    // What is cached is the same for every letter: another patient's request carries the very same system prompt.
    const other = buildLetterRequest('claude-x', 'JVBERi0xLjc=', { ...META, patient_name: 'B', visit_cost: '$2' });
    expect(other.system).toEqual(request.system);
  });
});
