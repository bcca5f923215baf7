import { readFileSync } from 'node:fs';
import { mockCob } from '../../../lib/cob/index.js';
import { mockEligibility } from '../../../lib/eligibility/index.js';
import { MOCK_PATIENTS } from '../../../lib/mock/index.js';
import { COB_SANDBOX_PATIENTS } from '../../dev/sandbox/cob-answers.js';
import { SANDBOX_PATIENTS } from '../../dev/sandbox/patients.js';
import { SANDBOX_COB_REQUESTS, SANDBOX_ELIGIBILITY_REQUESTS, type SandboxExamples } from './sandbox-examples.js';

/**
 * The request and answer examples of the OpenAPI document (document.ts): the mock sets (answers computed
 * by the mock code itself), the sandbox test patients (real answers computed by the production code
 * against the sandbox clearinghouse) and the sample letter request.
 */

type Json = Record<string, unknown>;

const mockRequest = (index: number, extra: Json = {}) => ({ ...MOCK_PATIENTS[index], mockRequest: true, ...extra });

export function eligibilityExamples(live: SandboxExamples) {
  const requests: Json = { ...SANDBOX_ELIGIBILITY_REQUESTS };
  const answers: Json = { ...live.eligibility };
  MOCK_PATIENTS.forEach((_patient, index) => {
    const set = index + 1;
    requests[`mock${set}`] = { summary: `Mock set ${set}`, value: mockRequest(index) };
    const answer = mockEligibility(mockRequest(index));
    if (answer.ok) answers[`mock${set}`] = { summary: `Mock set ${set}`, value: answer.body };
  });
  requests.mock1WithCob = { summary: 'Mock set 1 with the COB check', value: mockRequest(0, { runCobCheck: true }) };
  const withCob = mockEligibility(mockRequest(1, { runCobCheck: true }));
  if (withCob.ok) answers.mock2WithCob = { summary: 'Mock set 2 with runCobCheck', value: withCob.body };
  const estimate = {
    lines: [
      { serviceTypeCode: '30', amount: 1000 },
      { procedureCode: '99213', serviceTypeCode: '98', amount: 180 },
    ],
  };
  requests.mock2WithEstimate = { summary: 'Mock set 2 with an estimate (a guide: the payer adjudicates the claim)', value: mockRequest(1, { estimate }) };
  const withEstimate = mockEligibility(mockRequest(1, { estimate }));
  if (withEstimate.ok) answers.mock2WithEstimate = { summary: 'Mock set 2 with an estimate', value: withEstimate.body };
  for (const patient of SANDBOX_PATIENTS.filter((p) => !p.fault).slice(0, 6)) {
    requests[`sandbox${patient.lastName}`] = {
      summary: `Sandbox: ${patient.firstName} ${patient.lastName}`,
      description: patient.scenario,
      value: {
        patientFirstName: patient.firstName,
        patientLastName: patient.lastName,
        patientDOB: patient.dob,
        patientMemberId: patient.memberId,
        dateOfCoverage: '03-01-2025',
        payerId: patient.payerId,
        providerId: 'PROVIDER-SANDBOX-1',
      },
    };
  }
  return { requests, answers };
}

export function cobExamples(live: SandboxExamples) {
  const requests: Json = { ...SANDBOX_COB_REQUESTS };
  const answers: Json = { ...live.cob };
  MOCK_PATIENTS.forEach((patient, index) => {
    const set = index + 1;
    const value = {
      patientFirstName: patient.patientFirstName,
      patientLastName: patient.patientLastName,
      dateOfCoverage: patient.dateOfCoverage,
      payerId: patient.payerId,
      providerId: patient.providerId,
      mockRequest: true,
    };
    requests[`mock${set}`] = { summary: `Mock set ${set}`, value };
    const answer = mockCob(value);
    if (answer.ok) answers[`mock${set}`] = { summary: `Mock set ${set}`, value: answer.body };
  });
  for (const patient of COB_SANDBOX_PATIENTS.slice(0, 8)) {
    const value: Json = {
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      patientDOB: patient.dateOfBirth,
      patientMemberId: patient.memberId,
      dateOfCoverage: '03-01-2025',
      payerId: patient.payerId,
      providerId: 'PROVIDER-SANDBOX-1',
    };
    if (patient.dependent)
      Object.assign(value, {
        dependentFirstName: patient.dependent.firstName,
        dependentLastName: patient.dependent.lastName,
        dependentDOB: patient.dependent.dateOfBirth,
      });
    requests[`sandbox${patient.lastName.replace(/[^A-Za-z]/g, '')}`] = {
      summary: `Sandbox: ${patient.firstName} ${patient.lastName}`,
      description: patient.note,
      value,
    };
  }
  return { requests, answers };
}

/** The small procedure-notes PDF of events/letter-text.json. */
export function letterExample(): Json {
  const event = JSON.parse(readFileSync(new URL('../../../events/letter-text.json', import.meta.url), 'utf8')) as { body: string };
  const body = JSON.parse(event.body) as Json;
  return {
    ...body,
    patient_name: 'Maria Garcia',
    patient_identifier: 'PT-000123',
  };
}
