import { mkdirSync, writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * The sample documents the local Messages API sandbox answers for (docs/letter.md#trying-it-offline):
 * procedure notes for a lumbar spinal fusion, the payer's coverage policy with numbered criteria, and
 * a denial letter with CARC/RARC codes and an appeal deadline. All invented; no real patient or payer.
 * `npx tsx infra/dev/sandbox/sample-documents.ts` rewrites ./samples/*.pdf (committed, so `npm start`
 * and the tests need no step first). One drawn line is one text line, so each line is short.
 */

export const SAMPLE_NOTES_PAGES: string[][] = [
  [
    'SPINE CLINIC - PROCEDURE AND CONSULTATION NOTE',
    'Patient: sample patient, 58 years. Visit date: 03/02/2026.',
    'Diagnosis: Degenerative spondylolisthesis L4-L5 with spinal stenosis (ICD-10 M43.16, M48.062).',
    'Planned procedure: Posterior lumbar interbody fusion L4-L5 (CPT 22630).',
    'History: 14 months of low back pain radiating to both legs, neurogenic claudication.',
    'Imaging: Flexion-extension radiographs show 5 mm anterolisthesis with instability at L4-L5.',
    'Imaging: MRI shows severe central stenosis at L4-L5, correlating with the clinical findings.',
  ],
  [
    'Conservative care: 6 months of supervised physical therapy, NSAIDs and two epidural injections.',
    'Conservative care result: no lasting relief of leg pain or walking tolerance.',
    'Function: significant functional impairment, Oswestry Disability Index 52 percent.',
    'Function: walks less than one block before leg pain forces a rest.',
    'Neurologic exam: diminished sensation L5 dermatome bilaterally, strength 5/5.',
    'Plan: decompression and instrumented fusion L4-L5; risks and benefits discussed.',
  ],
];

export const SAMPLE_POLICY_PAGES: string[][] = [
  [
    'EXAMPLE HEALTH PLAN - MEDICAL POLICY MP-214',
    'Lumbar Spinal Fusion. Effective 01/01/2026.',
    'Lumbar fusion is considered medically necessary when ALL of the following criteria are met:',
    '1. Spondylolisthesis or instability documented on flexion-extension radiographs.',
    '2. Failure of at least 6 months of conservative care including physical therapy.',
    '3. Significant functional impairment documented by a validated disability scale.',
  ],
  [
    '4. Documented abstinence from nicotine for at least 6 weeks before surgery.',
    '5. Advanced imaging (MRI or CT) correlating with the clinical findings.',
    'Requests that do not meet every criterion are not medically necessary.',
  ],
];

export const SAMPLE_DENIAL_PAGES: string[][] = [
  [
    'EXAMPLE HEALTH PLAN - NOTICE OF ADVERSE BENEFIT DETERMINATION',
    'Claim for: Posterior lumbar interbody fusion L4-L5 (CPT 22630).',
    'Reason for denial: The records do not show that policy MP-214 criteria are met.',
    'Claim adjustment reason code: CO-50. Remark codes: N115, M127.',
    'You may appeal within 180 days of the date of this notice, by 09/01/2026.',
    'Send the appeal with the medical records to the Appeals Unit.',
  ],
];

export async function samplePdf(pages: string[][], title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  // Fixed dates and ids, so the committed files are the same bytes on every run.
  doc.setCreationDate(new Date('2026-03-02T00:00:00Z'));
  doc.setModificationDate(new Date('2026-03-02T00:00:00Z'));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 50, y: 740 - i * 18, size: 10, font });
  }
  return doc.save({ useObjectStreams: false });
}

export const SAMPLE_FILES = {
  notes: new URL('./samples/lumbar-fusion-notes.pdf', import.meta.url),
  policy: new URL('./samples/lumbar-fusion-policy.pdf', import.meta.url),
  denial: new URL('./samples/lumbar-fusion-denial.pdf', import.meta.url),
} as const;

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(new URL('./samples/', import.meta.url), { recursive: true });
  writeFileSync(SAMPLE_FILES.notes, await samplePdf(SAMPLE_NOTES_PAGES, 'Procedure notes (sample)'));
  writeFileSync(SAMPLE_FILES.policy, await samplePdf(SAMPLE_POLICY_PAGES, 'Medical policy MP-214 (sample)'));
  writeFileSync(SAMPLE_FILES.denial, await samplePdf(SAMPLE_DENIAL_PAGES, 'Denial notice (sample)'));
}
