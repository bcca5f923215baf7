import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { logger } from '../../lib/logging/index.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * README.md, "Where patient data goes": requests full of recognisable patient values go through every route and outcome
 * (success, validation failure, payer rejection, letter text and PDF); none of the values may
 * appear in anything written to stdout or stderr while they run.
 */

const PATIENT = {
  first: 'Zebulonia',
  last: 'Quillfeather',
  dob: '07-19-1961',
  member: 'MBRZQX998877',
  ssn: '987-65-4321',
  letterName: 'Xanthippe Wolfenstein',
  letterId: 'PTID-77341-QZ',
  noteText: 'Tenosynovectomy of the left wrist',
};
const SECRETS = Object.values(PATIENT).concat(['19610719', '987654321', 'QUILLFEATHER', 'ZEBULONIA']);

let api: LocalApi;
const captured: string[] = [];
const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

beforeAll(async () => {
  api = await startLocalApi();
  logger.setLogLevel('DEBUG');
  const capture = (original: typeof originals.out) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      // Swallowed, not echoed: the test output stays readable; the jest reporter is not routed here.
      void original;
      void rest;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture(originals.out);
  process.stderr.write = capture(originals.err);
});

afterAll(async () => {
  process.stdout.write = originals.out;
  process.stderr.write = originals.err;
  logger.setLogLevel('SILENT');
  await api?.close();
});

async function notesPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText(`Patient ${PATIENT.letterName}. Procedure: ${PATIENT.noteText}. Diagnosis M65.842.`, { x: 40, y: 700, size: 10, font });
  return Buffer.from(await doc.save({ useObjectStreams: false })).toString('base64');
}

describe('logs carry no patient data', () => {
  it('across every route and outcome', async () => {
    const eligibility = {
      patientFirstName: PATIENT.first,
      patientLastName: PATIENT.last,
      patientDOB: PATIENT.dob,
      patientMemberId: PATIENT.member,
      dateOfCoverage: '03-01-2025',
      payerId: 'SBXPPO',
      providerId: 'PROVIDER-SANDBOX-1',
    };
    const statuses = [
      (await api.call('/api/eligibility/v1', eligibility)).status, // payer does not know them: 422
      (await api.call('/api/eligibility/v1', { ...eligibility, runCobCheck: true })).status,
      (await api.call('/api/eligibility/v1', { ...eligibility, mockRequest: true })).status, // 500 mock not found
      (await api.call('/api/eligibility/v1', { ...eligibility, patientDOB: '02-30-1961', typo: PATIENT.member })).status, // 400
      (
        await api.call('/api/eligibility/cob/v1', {
          ...eligibility,
          patientSSN: PATIENT.ssn,
          serviceTypeCodes: ['30'],
          dependentFirstName: PATIENT.first,
          dependentLastName: PATIENT.last,
          dependentDOB: PATIENT.dob,
        })
      ).status,
      (await api.call('/api/eligibility/v1', undefined, { rawBody: `{"patientFirstName":"${PATIENT.first}",` })).status, // broken JSON
    ];
    const pdf = await notesPdf();
    const letter = {
      file_content: pdf,
      patient_identifier: PATIENT.letterId,
      patient_name: PATIENT.letterName,
      patient_age: '63',
      facility_name: 'Clinic',
      visit_cost: '$900.00',
      provider_email: 'dr@clinic.example',
      provider_phone: '555-0100',
      provider_signature: '/s/ Dr. Lee',
      provider_name: 'Dr. Lee, MD',
    };
    const text = await api.call('/api/generate-letter', letter);
    const asPdf = await api.call('/api/generate-letter', { ...letter, output_format: 'pdf' });
    const badFile = await api.call('/api/generate-letter', { ...letter, file_content: Buffer.from(`not a pdf ${PATIENT.letterName}`).toString('base64') });
    statuses.push(text.status, asPdf.status, badFile.status);

    // Finding the coverage (docs/finding-coverage.md): a discovery, one started by a rejection, Medicare number lookups.
    const discovery = {
      patientFirstName: PATIENT.first,
      patientLastName: PATIENT.last,
      patientDOB: PATIENT.dob,
      patientSSN: PATIENT.ssn,
      patientAddress: { street: `1 ${PATIENT.last} Way`, city: 'Springfield', state: 'IL', zip: '62701' },
      dateOfService: '03-01-2025',
      providerId: 'PROVIDER-SANDBOX-1',
    };
    const mbi = {
      patientFirstName: PATIENT.first,
      patientLastName: PATIENT.last,
      patientDOB: PATIENT.dob,
      dateOfCoverage: '03-01-2025',
      providerId: 'PROVIDER-SANDBOX-1',
    };
    const found = await api.call('/api/insurance-discovery/v1', discovery);
    const rejectedThenDiscovered = await api.call('/api/eligibility/v1', { ...eligibility, discoverOnInactive: true });
    statuses.push(
      found.status,
      (await api.call(`/api/insurance-discovery/v1/${found.body.discoveryId}`, undefined, { method: 'GET' })).status,
      rejectedThenDiscovered.status,
      (await api.call('/api/medicare/mbi/v1', { ...mbi, patientSSN: PATIENT.ssn })).status, // Medicare finds no one: 422
      (await api.call('/api/medicare/mbi/v1', { ...mbi, patientState: 'IL' })).status,
      (await api.call('/api/medicare/mbi/v1', mbi)).status, // neither SSN nor state: 400
    );
    expect(rejectedThenDiscovered.body.discovery.status).toBe('COMPLETE');

    expect(statuses).toEqual([422, 422, 500, 400, expect.any(Number), 400, 200, 200, 400, 200, 200, 422, 422, 422, 400]);
    expect(text.body.letter).toContain(PATIENT.letterName); // the values did flow through the service

    const output = captured.join('');
    expect(output).toContain('"route"'); // logs were captured at all
    for (const secret of SECRETS) expect(output.includes(secret) ? secret : null).toBeNull();
    expect(output.includes(pdf.slice(0, 40))).toBe(false);
    expect(output).not.toMatch(/ISA\*|NM1\*IL/);
  });
});
