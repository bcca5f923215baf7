/**
 * Per-visit, per-episode and per-admission deductibles (docs/eligibility.md#per-visit-deductibles): a C
 * row with EB06 26, 27 or 36 fills no deductible slot and shows as perOccurrenceDeductible in the level
 * object of its network, in its service's entry and, when it lists 30, in the plan-wide block; FHIR
 * carries it as an item of its own (docs/fhir.md#benefits), and the Bundle still validates against R4.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Bundle, CoverageEligibilityResponse } from '@medplum/fhirtypes';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { interpret271, interpret271Figures } from '../../lib/eligibility/interpret.js';
import { eligibilityBody } from '../../lib/eligibility/route.js';
import type { BenefitSummary, EligibilityQuestion } from '../../lib/eligibility/types.js';
import { SYSTEMS } from '../../lib/fhir/codes.js';
import { readEligibilityBundle } from '../../lib/fhir/request.js';
import { answerBundle } from '../../lib/fhir/response.js';
import type { EligibilityRequest } from '../../lib/validation/index.js';
import { response271 } from '../fixtures/x12/build.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';

/**
 * Shaped after a commercial PPO reply: a yearly deductible under 30, an emergency room deductible per visit
 * (no EB02: the individual's), an out-of-network inpatient deductible per admission, and a family
 * deductible per episode for both networks (W) under 30.
 */
const REPLY = [
  'EB*1**30^86^48**OPEN ACCESS PLUS',
  'EB*C*IND*30***23*1500*****Y',
  'EB*C*IND*30***29*1200*****Y',
  'EB*C**86***27*150*****Y',
  'MSG*PER VISIT DEDUCTIBLE APPLIES TO ER VISITS',
  'EB*C*IND*48***36*500*****N',
  'EB*C*FAM*30***26*300*****W',
  'EB*B*IND*86*****100*****Y',
];
const QUESTION: EligibilityQuestion = { serviceTypeCodes: ['30', '86', '48'] };

function summary(ebs: string[], question: EligibilityQuestion = QUESTION): BenefitSummary {
  const read = interpret271(response271(ebs), question);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const entry = (s: BenefitSummary, code: string) => s.benefits.find((b) => b.serviceType.code === code)!;

describe('perOccurrenceDeductible', () => {
  it('a per-visit row of a service: in its entry’s level of its network; an empty EB02 is the individual level', () => {
    const er = entry(summary(REPLY), '86');
    expect(er.inNetwork.individual.perOccurrenceDeductible).toEqual({ amount: '$150.00', per: 'Visit' });
    expect(er.inNetwork.family.perOccurrenceDeductible).toBeUndefined();
    expect(er.outNetwork.individual.perOccurrenceDeductible).toBeUndefined();
    // The per-visit row fills no deductible slot: the yearly figures are the plan's (fromPlan), not $150.
    expect(er.inNetwork.individual.deductible).toEqual({ total: '$1,500.00', remaining: '$1,200.00' });
    expect(er.fromPlan).toContain('deductible');
  });

  it('per admission, out of network only (EB12 N)', () => {
    const inpatient = entry(summary(REPLY), '48');
    expect(inpatient.outNetwork.individual.perOccurrenceDeductible).toEqual({ amount: '$500.00', per: 'Admission' });
    expect(inpatient.inNetwork.individual.perOccurrenceDeductible).toBeUndefined();
  });

  it('a row listing 30 reaches the plan-wide block (both networks for W); a row for another service does not', () => {
    const s = summary(REPLY);
    expect(s.inNetwork.family.perOccurrenceDeductible).toEqual({ amount: '$300.00', per: 'Episode' });
    expect(s.outNetwork.family.perOccurrenceDeductible).toEqual({ amount: '$300.00', per: 'Episode' });
    expect(s.inNetwork.individual.perOccurrenceDeductible).toBeUndefined();
    expect(s.inNetwork.individual.deductible).toEqual({ total: '$1,500.00', remaining: '$1,200.00' });
    // The key follows stopLossRemaining, and only where there is a figure.
    expect(Object.keys(s.inNetwork.family)).toEqual(['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining', 'perOccurrenceDeductible']);
    expect(Object.keys(s.inNetwork.individual)).toEqual(['copay', 'deductible', 'coinsurance', 'stopLoss', 'stopLossRemaining']);
  });

  it('a per-visit row alone fills no deductible slot (total and remaining stay N/A)', () => {
    const s = summary(['EB*1**30', 'EB*C*IND*30***27*75*****Y']);
    expect(s.inNetwork.individual.deductible).toEqual({ total: 'N/A', remaining: 'N/A' });
    expect(s.inNetwork.individual.perOccurrenceDeductible).toEqual({ amount: '$75.00', per: 'Visit' });
  });
});

describe('FHIR carries a per-visit deductible as an item of its own', () => {
  beforeAll(() => loadR4Definitions(), R4_LOAD_TIMEOUT_MS);

  it('term is the X12 time period, benefit a deductible in USD; the Bundle validates against R4', () => {
    const request = {
      patientFirstName: 'JANE',
      patientLastName: 'DOE',
      patientDOB: '01-01-1980',
      patientMemberId: 'W000000001',
      dateOfCoverage: '03-01-2025',
      payerId: 'PAYER',
      providerId: 'P-1',
      serviceTypeCodes: ['30', '86', '48'],
    } as EligibilityRequest;
    const mapped = readEligibilityBundle(requestBundle(request) as never);
    if (!mapped.ok) throw new Error('expected a readable request');
    const read = interpret271Figures(response271(REPLY), QUESTION);
    if (!read.result.ok) throw new Error(read.result.error.message);
    const figured = { body: eligibilityBody(read.result.value, new Date('2025-03-01T12:00:00Z')), figures: read.result.value };
    const bundle = answerBundle(figured, mapped.value.context, {
      created: '2025-03-01T12:00:00.000Z',
      id: '00000000-0000-4000-8000-000000000000',
    }) as Bundle;
    expect(r4Errors(bundle)).toEqual([]);
    const response = bundle.entry![0]!.resource as CoverageEligibilityResponse;
    const perVisit = response.insurance![0]!.item!.filter((item) => item.term?.coding?.[0]?.system === SYSTEMS.x12TimePeriod);
    expect(
      perVisit.map((item) => [item.category?.coding?.[0]?.code, item.network?.coding?.[0]?.code, item.unit?.coding?.[0]?.code, item.term?.text, item.benefit]),
    ).toEqual([
      ['30', 'in', 'family', 'Episode', [{ type: expect.anything(), allowedMoney: { value: 300, currency: 'USD' } }]],
      ['30', 'out', 'family', 'Episode', [{ type: expect.anything(), allowedMoney: { value: 300, currency: 'USD' } }]],
      ['86', 'in', 'individual', 'Visit', [{ type: expect.anything(), allowedMoney: { value: 150, currency: 'USD' } }]],
      ['48', 'out', 'individual', 'Admission', [{ type: expect.anything(), allowedMoney: { value: 500, currency: 'USD' } }]],
    ]);
    expect(perVisit[2]!.benefit![0]!.type.coding![0]!.code).toBe('deductible');
  });
});
