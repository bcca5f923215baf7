import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/dev/sandbox/messages-api.js';
import { SAMPLE_FILES, SAMPLE_POLICY_PAGES } from '../../infra/dev/sandbox/sample-documents.js';
import { fixedClock } from '../../lib/config/index.js';
import { generateLetter, type LetterAi } from '../../lib/letter/pipeline.js';
import type { LetterResponse } from '../../lib/letter/types.js';
import type { LetterRequest } from '../../lib/validation/schemas.js';
import { pdfText } from '../support/pdf-tools.js';
import { responseProblems } from '../support/response-schemas.js';
import { letterAiAt } from '../support/anthropic-fake.js';

// Letters against the payer's criteria (docs/letter.md#letter-types), all three types, through the
// loopback sandbox and the sample notes, policy and denial PDFs the repo ships.

let sandbox: MessagesSandbox;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
});
afterAll(() => sandbox.close());

const b64 = (file: URL) => readFileSync(file).toString('base64');
const request = (overrides: Partial<LetterRequest> = {}): LetterRequest => ({
  file_content: b64(SAMPLE_FILES.notes),
  patient_identifier: 'PAT-0214',
  patient_name: 'Ana Silva',
  patient_age: '58',
  facility_name: 'Lakeside Spine Center',
  visit_cost: '$41,200.00',
  provider_email: 'spine@lakeside.example',
  provider_phone: '+1 555 0100',
  provider_signature: '/s/ R. Okafor',
  provider_name: 'Rita Okafor, MD',
  policy_file_content: b64(SAMPLE_FILES.policy),
  policy_name: 'MP-214 Lumbar Spinal Fusion',
  ...overrides,
});
const ai = (): LetterAi => letterAiAt(sandbox.url, { key: 'sandbox', id: 'claude-sandbox' });

async function letterOf(req: LetterRequest): Promise<LetterResponse> {
  const { result } = await generateLetter(req, ai(), fixedClock('2026-03-09T09:00:00Z'));
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  expect(responseProblems('letter', result.value)).toEqual([]);
  return result.value;
}

const POLICY_TEXT = SAMPLE_POLICY_PAGES.flat().join('\n');

describe('a letter against the policy (sandbox)', () => {
  it("lists each criterion in the policy's words with its pages, status and notes evidence, and names those not met", async () => {
    const body = await letterOf(request());
    expect(body.criteria?.map((c) => [c.criterion, c.policyPages, c.status])).toEqual([
      ['Spondylolisthesis or instability documented on flexion-extension radiographs.', [1], 'met'],
      ['Failure of at least 6 months of conservative care including physical therapy.', [1], 'met'],
      ['Significant functional impairment documented by a validated disability scale.', [1], 'met'],
      ['Documented abstinence from nicotine for at least 6 weeks before surgery.', [2], 'not_met'],
      ['Advanced imaging (MRI or CT) correlating with the clinical findings.', [2], 'met'],
    ]);
    for (const criterion of body.criteria ?? []) expect(POLICY_TEXT).toContain(criterion.criterion);
    expect(body.criteria?.[1]?.evidence).toEqual([
      { page: 2, citedText: 'Conservative care: 6 months of supervised physical therapy, NSAIDs and two epidural injections.' },
    ]);
    expect(body.missingEvidence).toEqual([
      'The notes do not document this criterion: Documented abstinence from nicotine for at least 6 weeks before surgery.',
    ]);
    expect(body.notices.map((n) => n.code)).toEqual(['CRITERIA_NOT_MET']);
    expect(body.notices[0]?.message).toContain('“Documented abstinence from nicotine for at least 6 weeks before surgery.”');
    // The body argues the criteria with both kinds of marker; the sources list both documents.
    expect(body.letter).toContain('flexion-extension radiographs. [policy p. 1] The notes document it:');
    expect(body.letter).toContain('instability at L4-L5. [p. 1]');
    expect(body.letter).toContain('- policy p. 2: “Documented abstinence from nicotine for at least 6 weeks before surgery.”');
    expect(body.letter).toContain('- p. 2: “Conservative care: 6 months');
    expect(body.letter).toContain('Payer policy: MP-214 Lumbar Spinal Fusion');
    expect(body.letter).toContain('| Documented abstinence from nicotine for at least 6 weeks before surgery. \\[policy p. 2\\] | Not met | — |');
    expect(body.denial).toBeUndefined();
  });

  it('drops a criterion whose cited text is not in the policy, with CITATION_NOT_FOUND', async () => {
    const body = await letterOf(request({ patient_name: 'Ana SANDBOX:INVENTED_CRITERION Silva' }));
    expect(body.criteria).toHaveLength(5);
    expect(JSON.stringify(body)).not.toContain('over 70 years');
    expect(body.notices.map((n) => n.code)).toEqual(['CITATION_NOT_FOUND', 'CITATION_NOT_FOUND', 'CRITERIA_NOT_MET']);
    expect(body.notices[1]?.message).toBe("1 criterion was dropped: the cited text is not in the payer's policy");
  });

  it('writes a prior authorization with its requested services, keeping only codes the notes hold', async () => {
    const body = await letterOf(
      request({ letter_type: 'prior_authorization', requested_services: [{ code: '22630', units: 1, dateFrom: '04-06-2026' }, { code: '22633' }] }),
    );
    expect(body.letter).toContain('## Prior Authorization Request');
    expect(body.letter).toContain('### Requested services\n\n- 22630, 1 unit, 04-06-2026\n');
    expect(body.letter).not.toContain('22633');
    expect(body.notices).toContainEqual({
      code: 'UNVERIFIED_CODE_REMOVED',
      message: 'Requested service 22633 does not appear in the procedure notes, so it was left out of the letter',
    });
    expect(body.criteria).toHaveLength(5);
  });

  it('writes an appeal that quotes the denial, with its CARC and RARC codes and deadline', async () => {
    const body = await letterOf(request({ letter_type: 'appeal', denial_file_content: b64(SAMPLE_FILES.denial) }));
    expect(body.denial).toEqual({
      reason: 'The records do not show that policy MP-214 criteria are met.',
      carcCodes: [{ code: '50', description: "These are non-covered services because this is not deemed a 'medical necessity' by the payer." }],
      rarcCodes: [
        { code: 'N115', description: 'This decision was based on a Local Coverage Determination (LCD).' },
        { code: 'M127', description: 'Missing patient medical record for this service.' },
      ],
      appealDeadline: '09/01/2026',
    });
    expect(body.letter).toContain('## Appeal of Denied Coverage');
    expect(body.letter).toContain('- **Stated reason:** “The records do not show that policy MP-214 criteria are met.”');
    expect(body.letter).toContain('The denial states that the records do not show that policy MP-214 criteria are met. [denial p. 1]');
    expect(body.letter).toContain('- denial p. 1: “Reason for denial: The records do not show that policy MP-214 criteria are met.”');
  });

  it('renders the criteria as a table in the PDF, rows in order, flowing with the letter', async () => {
    const body = await letterOf(request({ output_format: 'pdf', letter_type: 'appeal', denial_file_content: b64(SAMPLE_FILES.denial) }));
    const text = await pdfText(new Uint8Array(Buffer.from(body.fileContent!, 'base64')));
    const table = text.slice(text.indexOf('Coverage criteria'), text.indexOf('Source documentation'));
    expect(table).toMatch(/Criterion\s+Status\s+Evidence \(notes/);
    const rows = [...table.matchAll(/\s(Met|Not met)\s+(p\. \d|—)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(rows).toEqual(['Met p. 1', 'Met p. 2', 'Met p. 2', 'Not met —', 'Met p. 1']);
    // A cell wraps inside its column: the criterion's words continue on the next line, not into the status column.
    expect(table).toMatch(/Spondylolisthesis or instability documented on\s+Met\s+p\. 1\s*\n\s*flexion-extension radiographs\. \[policy p\. 1\]/);
    expect(text).toContain('Denial under appeal');
    expect(text).toMatch(/Page 1 of [3-9]/);
  });
});
