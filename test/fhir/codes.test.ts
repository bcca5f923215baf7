import { beforeAll, describe, expect, it } from '@jest/globals';
import { basisPoints, cents, NOT_KNOWN, type LevelFigures } from '../../lib/eligibility/figures.js';
import { ERROR_TABLE, type ErrorCode } from '../../lib/errors/index.js';
import {
  ANNUAL_TERM,
  BENEFIT_TYPES,
  fieldIssueType,
  INFORCE,
  ISSUE_TYPES,
  MOCK_TAG,
  NETWORKS,
  OCCURRENCE_TERMS,
  PROCEDURE_SYSTEMS,
  SYSTEMS,
  UNITS,
} from '../../lib/fhir/codes.js';
import { itemsOf } from '../../lib/fhir/items.js';
import { readEligibilityBundle } from '../../lib/fhir/request.js';
import { operationOutcomeOf } from '../../lib/fhir/outcome.js';
import { requestBundle } from '../../infra/tools/openapi/fhir.js';
import { SANDBOX_GARCIA } from '../support/events.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';

/** One test per mapping table of lib/fhir/codes.ts (docs/fhir.md#code-systems). */

beforeAll(() => loadR4Definitions(), R4_LOAD_TIMEOUT_MS);

/** A level's figures as the answer carries them: money in cents, coinsurance in basis points; left out is not known. */
const figures = (
  over: Partial<{ copay: bigint; total: bigint; remaining: bigint; coinsurance: bigint; stopLoss: bigint; stopLossRemaining: bigint }> = {},
): LevelFigures => ({
  copay: over.copay === undefined ? NOT_KNOWN : cents(over.copay),
  deductible: { total: over.total === undefined ? NOT_KNOWN : cents(over.total), remaining: over.remaining === undefined ? NOT_KNOWN : cents(over.remaining) },
  coinsurance: over.coinsurance === undefined ? NOT_KNOWN : basisPoints(over.coinsurance),
  stopLoss: over.stopLoss === undefined ? NOT_KNOWN : cents(over.stopLoss),
  stopLossRemaining: over.stopLossRemaining === undefined ? NOT_KNOWN : cents(over.stopLossRemaining),
});
const empty = { individual: figures(), family: figures() };
/** The benefits itemsOf gives one level's figures: those of the in-network individual item, [] when it makes none. */
const benefitsOf = (level: ReturnType<typeof figures>) =>
  itemsOf({}, { inNetwork: { individual: level, family: figures() }, outNetwork: empty })[0]?.benefit ?? [];
const codesOf = (concept: { coding?: { system?: string; code?: string }[] } | undefined) => concept?.coding?.map((c) => `${c.system}|${c.code}`);

describe('code systems', () => {
  it('names X12 and HL7 systems by their canonical URLs', () => {
    expect(SYSTEMS).toMatchObject({
      x12ServiceType: 'https://codesystem.x12.org/005010/1365',
      x12BenefitInfo: 'https://codesystem.x12.org/005010/1390',
      x12RejectReason: 'https://codesystem.x12.org/005010/901',
      benefitType: 'http://terminology.hl7.org/CodeSystem/benefit-type',
      benefitNetwork: 'http://terminology.hl7.org/CodeSystem/benefit-network',
      benefitUnit: 'http://terminology.hl7.org/CodeSystem/benefit-unit',
      benefitTerm: 'http://terminology.hl7.org/CodeSystem/benefit-term',
    });
  });
});

describe('OCCURRENCE_TERMS: a per-occurrence deductible → the X12 time period as its item’s term', () => {
  it('Visit 27, Episode 26, Admission 36; the item follows its level’s annual item, a deductible in USD', () => {
    expect(Object.entries(OCCURRENCE_TERMS).map(([per, coding]) => [per, coding.system, coding.code])).toEqual([
      ['Episode', 'https://codesystem.x12.org/005010/615', '26'],
      ['Visit', 'https://codesystem.x12.org/005010/615', '27'],
      ['Admission', 'https://codesystem.x12.org/005010/615', '36'],
    ]);
    const level: LevelFigures = { ...figures({ total: 100000n }), perOccurrenceDeductible: { amount: cents(25050n), per: 'Admission' } };
    const items = itemsOf({}, { inNetwork: { individual: level, family: empty.family }, outNetwork: empty });
    expect(items.map((item) => [codesOf(item.term), item.term?.text, item.benefit?.map((b) => [codesOf(b.type), b.allowedMoney?.value])])).toEqual([
      [[`${SYSTEMS.benefitTerm}|annual`], undefined, expect.any(Array)],
      [[`${SYSTEMS.x12TimePeriod}|36`], 'Admission', [[[`${SYSTEMS.benefitType}|deductible`], 250.5]]],
    ]);
  });
});

describe('NETWORKS: inNetwork/outNetwork → benefit-network', () => {
  it('puts the in-network block on `in` items and the out-of-network block on `out` items', () => {
    const items = itemsOf(
      {},
      { inNetwork: { ...empty, individual: figures({ copay: 1_000n }) }, outNetwork: { ...empty, individual: figures({ copay: 3_000n }) } },
    );
    expect(items.map((item) => [codesOf(item.network), item.benefit?.[0]?.allowedMoney?.value])).toEqual([
      [[`${SYSTEMS.benefitNetwork}|in`], 10],
      [[`${SYSTEMS.benefitNetwork}|out`], 30],
    ]);
    expect([NETWORKS.inNetwork.code, NETWORKS.outNetwork.code]).toEqual(['in', 'out']);
  });
});

describe('UNITS: individual/family → benefit-unit', () => {
  it('puts each level on its own item', () => {
    const items = itemsOf({}, { inNetwork: { individual: figures({ copay: 1_000n }), family: figures({ copay: 2_500n }) }, outNetwork: empty });
    expect(items.map((item) => [codesOf(item.unit), item.benefit?.[0]?.allowedMoney?.value])).toEqual([
      [[`${SYSTEMS.benefitUnit}|individual`], 10],
      [[`${SYSTEMS.benefitUnit}|family`], 25],
    ]);
    expect([UNITS.individual.code, UNITS.family.code]).toEqual(['individual', 'family']);
  });
});

describe('ANNUAL_TERM: items with a yearly accumulator', () => {
  it('marks deductible and out-of-pocket items annual, and leaves copay-only items without a term', () => {
    const items = itemsOf({}, { inNetwork: { individual: figures({ copay: 1_000n }), family: figures({ stopLoss: 900_000n }) }, outNetwork: empty });
    expect(items.map((item) => codesOf(item.term))).toEqual([undefined, [`${SYSTEMS.benefitTerm}|${ANNUAL_TERM.code}`]]);
  });
});

describe('BENEFIT_TYPES: each figure → benefit.type and value', () => {
  it('deductible: allowedMoney is the total, usedMoney is total − remaining (never the remaining itself)', () => {
    const [deductible] = benefitsOf(figures({ total: 150_000n, remaining: 125_050n }));
    expect(codesOf(deductible?.type)).toEqual([`${SYSTEMS.benefitType}|deductible`]);
    expect([deductible?.allowedMoney, deductible?.usedMoney]).toEqual([
      { value: 1500, currency: 'USD' },
      { value: 249.5, currency: 'USD' },
    ]);
  });

  it('deductible: no usedMoney when the remaining is unknown or above the total; nothing when the total is unknown', () => {
    expect(benefitsOf(figures({ total: 50_000n }))[0]).toEqual({ type: BENEFIT_TYPES.deductible, allowedMoney: { value: 500, currency: 'USD' } });
    expect(benefitsOf(figures({ total: 50_000n, remaining: 60_000n }))[0]?.usedMoney).toBeUndefined();
    expect(benefitsOf(figures({ remaining: 20_000n }))).toEqual([]);
  });

  it('copay: allowedMoney in USD, exact to the cent', () => {
    expect(benefitsOf(figures({ copay: 123_405n }))).toEqual([{ type: BENEFIT_TYPES.copay, allowedMoney: { value: 1234.05, currency: 'USD' } }]);
    expect(codesOf(BENEFIT_TYPES.copay)).toEqual([`${SYSTEMS.benefitType}|copay`]);
  });

  it('coinsurance: copay-percent, a whole percentage as allowedUnsignedInt, a fractional one as allowedString', () => {
    expect(benefitsOf(figures({ coinsurance: 2_000n }))).toEqual([{ type: BENEFIT_TYPES.coinsurance, allowedUnsignedInt: 20 }]);
    expect(benefitsOf(figures({ coinsurance: 0n }))).toEqual([{ type: BENEFIT_TYPES.coinsurance, allowedUnsignedInt: 0 }]);
    expect(benefitsOf(figures({ coinsurance: 1250n }))).toEqual([{ type: BENEFIT_TYPES.coinsurance, allowedString: '12.5%' }]);
    expect(codesOf(BENEFIT_TYPES.coinsurance)).toEqual([`${SYSTEMS.benefitType}|copay-percent`]);
  });

  it('out-of-pocket maximum: X12 EB01 G beside the text, allowed = stopLoss, used = stopLoss − stopLossRemaining', () => {
    const [oop] = benefitsOf(figures({ stopLoss: 600_000n, stopLossRemaining: 420_000n }));
    expect(oop?.type).toEqual({ coding: [{ system: SYSTEMS.x12BenefitInfo, code: 'G', display: 'Out of Pocket (Stop Loss)' }], text: 'Out-of-pocket maximum' });
    expect([oop?.allowedMoney?.value, oop?.usedMoney?.value]).toEqual([6000, 1800]);
  });

  it('money and percentage text: N/A is no value, never zero; a negative figure is no value either', () => {
    expect(benefitsOf(figures({ copay: 0n }))).toEqual([{ type: BENEFIT_TYPES.copay, allowedMoney: { value: 0, currency: 'USD' } }]);
    expect(benefitsOf(figures({ copay: 200_000n }))).toEqual([{ type: BENEFIT_TYPES.copay, allowedMoney: { value: 2000, currency: 'USD' } }]);
    expect(benefitsOf(figures({ coinsurance: 1_000n }))).toEqual([{ type: BENEFIT_TYPES.coinsurance, allowedUnsignedInt: 10 }]);
    expect(benefitsOf(figures({ coinsurance: -500n, stopLoss: -1_000n }))).toEqual([]);
    expect(benefitsOf(figures())).toEqual([]);
  });

  it('Money values are the cents ÷ 100 as a JSON number, for allowed and for used = allowed − remaining, up to 2^53 − 1 cents', () => {
    const [deductible, , oop] = benefitsOf(
      figures({ total: 123_456_789_007n, remaining: 10n, copay: 29n, stopLoss: 9_007_199_254_740_991n, stopLossRemaining: 1n }),
    );
    expect(JSON.stringify([deductible?.allowedMoney, deductible?.usedMoney, oop?.allowedMoney, oop?.usedMoney])).toBe(
      '[{"value":1234567890.07,"currency":"USD"},{"value":1234567889.97,"currency":"USD"},{"value":90071992547409.9,"currency":"USD"},{"value":90071992547409.9,"currency":"USD"}]',
    );
  });

  it('answers share no object with the table', () => {
    const [copay] = benefitsOf(figures({ copay: 500n }));
    expect(copay?.type).not.toBe(BENEFIT_TYPES.copay);
    expect(copay?.type.coding).not.toBe(BENEFIT_TYPES.copay.coding);
  });
});

describe('INFORCE: coverageStatus → insurance.inforce', () => {
  it('Active is in force, Inactive is not, Unknown says neither', () => {
    expect(INFORCE).toEqual({ Active: true, Inactive: false, Unknown: undefined });
  });
});

describe('flags on items: status and authorization', () => {
  it('a NotCovered service is excluded; authorizationRequired rides on each of its items; a flag alone still makes one item', () => {
    const covered = itemsOf({ authorizationRequired: true }, { inNetwork: { ...empty, individual: figures({ copay: 4_000n }) }, outNetwork: empty });
    expect(covered.map((item) => [item.authorizationRequired, item.excluded])).toEqual([[true, undefined]]);
    const notCovered = itemsOf({ category: { text: 'Vision' }, status: 'NotCovered' }, { inNetwork: empty, outNetwork: empty });
    expect(notCovered).toEqual([{ category: { text: 'Vision' }, excluded: true }]);
    expect(itemsOf({ status: 'Active' }, { inNetwork: empty, outNetwork: empty })).toEqual([]);
  });
});

describe('ISSUE_TYPES: our error codes → OperationOutcome issue type', () => {
  it('covers every code of the error table, each giving a valid R4 OperationOutcome', () => {
    expect(Object.keys(ISSUE_TYPES).sort()).toEqual(Object.keys(ERROR_TABLE).sort());
    for (const code of Object.keys(ERROR_TABLE) as ErrorCode[]) {
      const outcome = operationOutcomeOf({ message: ERROR_TABLE[code].message, code });
      expect([code, outcome.issue[0]?.code, r4Errors(outcome)]).toEqual([code, ISSUE_TYPES[code], []]);
    }
  });

  it('a missing field is `required`, any other field problem `invalid`', () => {
    expect([fieldIssueType('is required'), fieldIssueType('is required: the Coverage to check'), fieldIssueType('must be text')]).toEqual([
      'required',
      'required',
      'invalid',
    ]);
  });
});

describe('PROCEDURE_SYSTEMS: productOrService codings → procedureCodes', () => {
  it('accepts CPT, HCPCS and CDT systems and refuses another', () => {
    for (const system of PROCEDURE_SYSTEMS) {
      const bundle = requestBundle({ ...SANDBOX_GARCIA, procedureCodes: ['99213'] });
      const request = bundle.entry![0]!.resource as { item: { productOrService: { coding: { system: string }[] } }[] };
      request.item[0]!.productOrService.coding[0]!.system = system;
      const mapped = readEligibilityBundle(bundle as never);
      expect([system, mapped.ok && mapped.value.body.procedureCodes]).toEqual([system, ['99213']]);
    }
    const bundle = requestBundle({ ...SANDBOX_GARCIA, procedureCodes: ['99213'] });
    (bundle.entry![0]!.resource as { item: { productOrService: { coding: { system: string }[] } }[] }).item[0]!.productOrService.coding[0]!.system =
      'http://snomed.info/sct';
    const refused = readEligibilityBundle(bundle as never);
    expect(refused.ok ? [] : refused.error.errors?.map((e) => e.field)).toEqual(['Bundle.entry[0].resource.item[0].productOrService']);
  });
});

describe('MOCK_TAG: meta.tag → mockRequest', () => {
  it('turns on mock mode from the request or the Bundle, and only with our system', () => {
    const tagged = requestBundle({ ...SANDBOX_GARCIA, mockRequest: true });
    const mapped = readEligibilityBundle(tagged as never);
    expect(mapped.ok && mapped.value.body.mockRequest).toBe(true);
    const onBundle = { ...requestBundle(SANDBOX_GARCIA), meta: { tag: [{ ...MOCK_TAG }] } };
    const fromBundle = readEligibilityBundle(onBundle as never);
    expect(fromBundle.ok && fromBundle.value.body.mockRequest).toBe(true);
    const otherSystem = requestBundle(SANDBOX_GARCIA);
    (otherSystem.entry![0]!.resource as { meta?: unknown }).meta = { tag: [{ system: 'http://example.org/tags', code: 'mock' }] };
    const notMock = readEligibilityBundle(otherSystem as never);
    expect(notMock.ok && notMock.value.body.mockRequest).toBeUndefined();
  });
});
