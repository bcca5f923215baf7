/**
 * FHIR's Money and unsignedInt come from the numbers the eligibility answer was formatted from
 * (docs/eligibility.md#figures-inside-the-service), never from reading its "$1,234.50" text back.
 */
import { describe, expect, it } from '@jest/globals';
import type { CoverageEligibilityResponse } from '@medplum/fhirtypes';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { mockEligibility } from '../../lib/eligibility/mock.js';
import { readEligibilityBundle } from '../../lib/fhir/request.js';
import { answerBundle } from '../../lib/fhir/response.js';
import { MOCK_PATIENTS } from '../../lib/mock/patients.js';
import type { EligibilityRequest } from '../../lib/validation/index.js';

const STAMP = { created: '2025-03-01T00:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' };

function mockAnswer() {
  const body = { ...MOCK_PATIENTS[0]!, mockRequest: true } as EligibilityRequest;
  const mapped = readEligibilityBundle(requestBundle(body) as never);
  const answer = mockEligibility(body);
  if (!mapped.ok || !answer.ok) throw new Error('expected mock set 1');
  return { context: mapped.value.context, answer };
}

/** The in-network individual item's copay and coinsurance. */
function firstItem(bundle: ReturnType<typeof answerBundle>) {
  const response = bundle.entry![0]!.resource as CoverageEligibilityResponse;
  const benefits = response.insurance![0]!.item![0]!.benefit!;
  return benefits.map((benefit) => benefit.allowedMoney?.value ?? benefit.allowedUnsignedInt);
}

describe('FHIR figures', () => {
  it('take the answer’s numbers: text changed after formatting does not reach the Bundle', () => {
    const { context, answer } = mockAnswer();
    const before = firstItem(answerBundle(answer, context, STAMP));
    // Set 1 in network, individual: deductible $500.00, copay $20.00, coinsurance 10%, out-of-pocket $2,000.00.
    expect(before).toEqual([500, 20, 10, 2000]);
    answer.body.inNetwork.individual.copay = '$999.00';
    answer.body.inNetwork.individual.coinsurance = '55%';
    expect(firstItem(answerBundle(answer, context, STAMP))).toEqual(before);
  });

  it('take the figures handed over beside the body: other numbers, other Bundle', () => {
    const { context, answer } = mockAnswer();
    const figures = structuredClone(answer.figures);
    figures.inNetwork.individual.copay = 2_500n as typeof figures.inNetwork.individual.copay;
    expect(firstItem(answerBundle({ body: answer.body, figures }, context, STAMP))).toEqual([500, 25, 10, 2000]);
  });
});
