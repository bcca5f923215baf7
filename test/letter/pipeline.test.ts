import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMessagesSandbox, type MessagesSandbox } from '../../infra/sandbox/messages-api.js';
import { readProcedureNotes } from '../../lib/letter/input.js';
import { assembleLetter } from '../../lib/letter/markdown.js';
import { renderLetterPdf } from '../../lib/letter/pdf.js';
import type { LetterMetadata } from '../../lib/letter/types.js';
import { writeLetterBody } from '../../lib/upstream/anthropic.js';
import { procedureNotesPdf, toBase64 } from '../fixtures/letter/pdfs.js';

// The calls the letter handler makes, in its order, against the loopback sandbox.

let sandbox: MessagesSandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startMessagesSandbox();
  dir = mkdtempSync(join(tmpdir(), 'letter-pipeline-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const meta: LetterMetadata = {
  patient_identifier: 'PAT-0042',
  patient_name: 'Zoë Ångström',
  patient_age: '63',
  facility_name: 'Lakeside Joint Center',
  visit_cost: '$28,500.00',
  provider_email: 'ortho@lakeside.example',
  provider_phone: '555-0100',
  provider_signature: '/s/ R. Okafor',
  provider_name: 'Rita Okafor, MD, FAAOS',
};

describe('letter pipeline', () => {
  it('turns uploaded notes into a markdown letter and a PDF carrying the same content', async () => {
    const notes = await readProcedureNotes(`data:application/pdf;base64,${toBase64(await procedureNotesPdf())}`);
    if (!notes.ok) throw new Error(notes.error.message);
    const written = await writeLetterBody({ apiKey: 'sandbox', baseURL: sandbox.url, model: 'claude-sandbox', timeoutMs: 10_000, pdfBase64: notes.value.base64, metadata: meta });
    if (!written.ok) throw new Error(written.error.message);
    const generatedAt = new Date('2026-02-01T09:00:00Z');

    const letter = assembleLetter(meta, written.value.body, generatedAt);
    expect(letter).toMatch(/^# Lakeside Joint Center$/m);
    expect(letter).toContain('**Name:** Zoë Ångström');
    expect(letter).toContain('CPT 27447');
    expect(letter.trimEnd().endsWith('Rita Okafor, MD, FAAOS')).toBe(true);

    const file = join(dir, 'letter.pdf');
    writeFileSync(file, await renderLetterPdf(meta, written.value.body, generatedAt));
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    for (const part of ['Lakeside Joint Center', 'Zoë Ångström', 'M17.11', 'CPT 27447', 'Medical Necessity', 'Rita Okafor, MD, FAAOS', 'Page 1 of']) {
      expect(text).toContain(part);
    }
  });
});
