import { readFileSync } from 'node:fs';
import { fixedClock } from '../../../lib/config/clock.js';
import { checkCob } from '../../../lib/cob/check.js';
import { checkEligibility } from '../../../lib/eligibility/check.js';
import type { SummaryFigures } from '../../../lib/eligibility/figures.js';
import { eligibilityBody } from '../../../lib/eligibility/route.js';
import type { Enrollment } from '../../../lib/enrollment/types.js';
import { ok } from '../../../lib/errors/index.js';
import { stediClearinghouse } from '../../../lib/upstream/clearinghouse.js';
import { startClearinghouseSandbox } from '../../dev/sandbox/clearinghouse.js';

/**
 * Real answers for the OpenAPI examples: the production eligibility and COB code run against the
 * sandbox clearinghouse on loopback for a few sandbox patients, with a fixed clock so the document
 * is reproducible. (The mock examples come from the mock code in document.ts.)
 */

type Json = Record<string, unknown>;
export interface SandboxExamples {
  eligibility: Record<string, { summary: string; value: unknown }>;
  /** The numbers each eligibility example was formatted from (the FHIR examples read these). */
  eligibilityFigures: Record<string, SummaryFigures>;
  cob: Record<string, { summary: string; value: unknown }>;
}

const CHECKED_AT = new Date('2025-03-01T15:04:05.000Z');
const API_KEY = 'sandbox-key';

/** Request bodies of the real examples, keyed like the examples (the same bodies are request examples). */
export const SANDBOX_ELIGIBILITY_REQUESTS: Record<string, { summary: string; value: Json }> = {
  sandboxGarciaProcedures: {
    summary: 'Sandbox: Maria Garcia (active PPO), office visits and two procedures',
    value: {
      patientFirstName: 'Maria',
      patientLastName: 'Garcia',
      patientDOB: '04-12-1985',
      patientMemberId: 'PPO100001',
      dateOfCoverage: '03-01-2025',
      payerId: 'SBXPPO',
      providerId: 'PROVIDER-SANDBOX-1',
      serviceTypeCodes: ['30', '98'],
      procedureCodes: ['99213', 'D0120'],
    },
  },
  sandboxPatelDependent: {
    summary: 'Sandbox: Lily Patel, a dependent on a family plan',
    value: {
      patientFirstName: 'Lily',
      patientLastName: 'Patel',
      patientDOB: '06-15-2012',
      patientMemberId: 'FAM300003',
      dateOfCoverage: '03-01-2025',
      payerId: 'SBXPPO',
      providerId: 'PROVIDER-SANDBOX-1',
    },
  },
};

export const SANDBOX_COB_REQUESTS: Record<string, { summary: string; value: Json }> = {
  sandboxRossiSecondary: {
    summary: 'Sandbox: Sofia Rossi, another plan pays second',
    value: {
      patientFirstName: 'Sofia',
      patientLastName: 'Rossi',
      patientDOB: '07-21-1983',
      patientMemberId: 'SBX500005',
      dateOfCoverage: '03-01-2025',
      payerId: 'SANDBOX-PAYER-1',
      providerId: 'PROVIDER-SANDBOX-1',
    },
  },
};

function sampleEnrollment(): Enrollment {
  const records = JSON.parse(readFileSync(new URL('../../dev/local/enrollments.sample.json', import.meta.url), 'utf8')) as Enrollment[];
  return records.find((record) => record.providerId === 'PROVIDER-SANDBOX-1')!;
}

export async function sandboxExamples(): Promise<SandboxExamples> {
  const sandbox = await startClearinghouseSandbox({ apiKey: API_KEY, now: () => CHECKED_AT });
  try {
    const clearinghouse = stediClearinghouse({
      baseUrl: sandbox.url,
      apiKey: async () => ok(API_KEY),
      budgetMs: 25_000,
      payerSearchBudgetMs: 3_000,
      sandbox: true,
    });
    const enrollment = sampleEnrollment();
    const examples: SandboxExamples = { eligibility: {}, eligibilityFigures: {}, cob: {} };
    for (const [key, { summary, value }] of Object.entries(SANDBOX_ELIGIBILITY_REQUESTS)) {
      const check = await checkEligibility({ request: value as never, enrollment, clearinghouse, clock: fixedClock(CHECKED_AT), controlNumber: () => 1 });
      if (!check.result.ok) throw new Error(`sandbox example ${key} failed: ${check.result.error.code}`);
      examples.eligibility[key] = { summary, value: eligibilityBody(check.result.value, CHECKED_AT) };
      examples.eligibilityFigures[key] = check.result.value;
    }
    for (const [key, { summary, value }] of Object.entries(SANDBOX_COB_REQUESTS)) {
      const check = await checkCob({ query: value as never, enrollment, clearinghouse, controlNumber: '000000001' });
      if (!check.result.ok) throw new Error(`sandbox example ${key} failed: ${check.result.error.code}`);
      examples.cob[key] = { summary, value: check.result.value };
    }
    return examples;
  } finally {
    await sandbox.close();
  }
}
