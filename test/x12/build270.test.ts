import { describe, it, expect } from '@jest/globals';
import { fixedClock } from '../../lib/config/clock.js';
import { build270, controlNumberOfKey, type Build270Input } from '../../lib/x12/build270.js';
import { cleanElement as clean } from '../../lib/x12/clean.js';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { element } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';

const input: Build270Input = {
  payerId: '60054',
  payerName: 'Aetna',
  provider: { npi: '1234567893', organizationName: 'Test Clinic' },
  subscriber: { firstName: 'Jane', lastName: 'Doe', memberId: 'W000123', dateOfBirth: '19800102' },
  dateOfCoverage: '20250301',
};
const clock = fixedClock('2025-03-01T09:05:00Z');

function segments(x12: string) {
  const tokens = tokenize(x12);
  if (!tokens.ok) throw new Error(tokens.error.message);
  return tokens;
}

describe('build270', () => {
  it('emits the segments of docs/eligibility.md#the-270 in order', () => {
    const { x12, interchangeControlNumber } = build270(input, { clock, controlNumber: () => 42 });
    expect(interchangeControlNumber).toBe('000000042');
    expect(x12.split('~').slice(1, -1)).toEqual([
      'GS*HS*ELIGIBILITYAPI*STEDI*20250301*0905*42*X*005010X279A1',
      'ST*270*000000042*005010X279A1',
      'BHT*0022*13*000000042*20250301*0905',
      'HL*1**20*1',
      'NM1*PR*2*Aetna*****PI*60054',
      'HL*2*1*21*1',
      'NM1*1P*2*Test Clinic*****XX*1234567893',
      'HL*3*2*22*0',
      'TRN*1*000000042*9ELIGIBAPI',
      'NM1*IL*1*DOE*JANE****MI*W000123',
      'DMG*D8*19800102',
      'DTP*291*D8*20250301',
      'EQ*30',
      'SE*13*000000042',
      'GE*1*42',
      'IEA*1*000000042',
    ]);
  });

  it('has a fixed-width 106-character ISA with 5010 delimiters', () => {
    const { x12 } = build270(input, { clock, controlNumber: () => 7, senderId: 'ME', receiverId: 'YOU', usageIndicator: 'T' });
    const isa = x12.slice(0, x12.indexOf('~') + 1);
    expect(isa).toHaveLength(106);
    expect(isa).toBe('ISA*00*          *00*          *ZZ*ME             *ZZ*YOU            *250301*0905*^*00501*000000007*0*T*:~');
  });

  it('round-trips through our own parser with no envelope warnings', () => {
    const { x12 } = build270(input, { clock });
    const tokens = segments(x12);
    const env = readEnvelope(tokens.segments);
    expect(tokens.warnings).toEqual([]);
    expect(env.warnings).toEqual([]);
    expect(env.transactions[0]!.setId).toBe('270');
  });

  it('uses the individual provider form when there is no organization', () => {
    const { x12 } = build270({ ...input, provider: { npi: '1234567893', firstName: 'Ann', lastName: 'Lee' } }, { clock });
    expect(x12).toContain('~NM1*1P*1*Lee*Ann****XX*1234567893~');
  });

  it('emits one EQ per requested service type code', () => {
    const { x12 } = build270({ ...input, serviceTypeCodes: ['30', '98', 'UC'] }, { clock });
    expect(x12).toContain('~EQ*30~EQ*98~EQ*UC~SE*15*');
    const env = readEnvelope(segments(x12).segments);
    expect(env.warnings).toEqual([]);
  });

  it('emits one EQ per procedure code after the service types: HC for CPT/HCPCS, AD for CDT (D + 4 digits)', () => {
    const { x12 } = build270({ ...input, serviceTypeCodes: ['30', '35'], procedureCodes: ['99213', 'D0120', 'J1100', 'DX123'] }, { clock });
    expect(x12).toContain('~EQ*30~EQ*35~EQ**HC:99213~EQ**AD:D0120~EQ**HC:J1100~EQ**HC:DX123~SE*');
    expect(readEnvelope(segments(x12).segments).warnings).toEqual([]);
    // Procedures alone still ask about the default 30.
    expect(build270({ ...input, procedureCodes: ['99213'] }, { clock }).x12).toContain('~EQ*30~EQ**HC:99213~SE*');
  });

  it('strips delimiter characters from values so they cannot break the envelope', () => {
    const { x12 } = build270(
      { ...input, subscriber: { firstName: 'Jo~Ann', lastName: "O'Brien*Smith", memberId: 'AB:12^3', dateOfBirth: '19800102' } },
      { clock },
    );
    expect(x12).toContain("~NM1*IL*1*O'BRIEN SMITH*JO ANN****MI*AB 12 3~");
    const tokens = segments(x12);
    const nm1 = tokens.segments.find((s) => s.id === 'NM1' && element(s, 1) === 'IL')!;
    expect(nm1.elements).toHaveLength(10);
    expect(readEnvelope(tokens.segments).warnings).toEqual([]);
    expect(clean(' a\r\nb\t* c ')).toBe('a b c');
  });

  it('uses a fresh control number per request by default', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) seen.add(build270(input, { clock }).interchangeControlNumber);
    expect(seen.size).toBeGreaterThan(45);
    for (const n of seen) expect(n).toMatch(/^\d{9}$/);
  });

  it('keeps control numbers to 9 digits and never zero', () => {
    expect(build270(input, { clock, controlNumber: () => 12_345_678_901 }).interchangeControlNumber).toBe('345678901');
    expect(build270(input, { clock, controlNumber: () => 0 }).interchangeControlNumber).toBe('000000001');
  });

  it('derives nine digits from an upstream request key: the same key, the same number', () => {
    expect(String(controlNumberOfKey('b-1-1-270'))).toMatch(/^[1-9]\d{8}$/);
    expect(controlNumberOfKey('b-1-1-270')).toBe(controlNumberOfKey('b-1-1-270'));
    expect(controlNumberOfKey('b-1-2-270')).not.toBe(controlNumberOfKey('b-1-1-270'));
  });

  it('falls back to a placeholder payer name (NM103 is required)', () => {
    const { payerName: _omit, ...rest } = input;
    expect(build270(rest, { clock }).x12).toContain('~NM1*PR*2*UNKNOWN*****PI*60054~');
  });
});

describe('2000C trace number', () => {
  it('carries a TRN*1 with the request control number, which the sandbox echoes as TRN*2', async () => {
    const { build270: build } = await import('../../lib/x12/build270.js');
    // The service's originator id (docs/eligibility.md#the-270): "9" and nine characters, ten in all.
    const TRACE_ORIGINATOR = '9ELIGIBAPI';
    const { read270 } = await import('../../infra/dev/sandbox/read270.js');
    const built = build(
      {
        payerId: 'P1',
        provider: { npi: '1234567893', organizationName: 'Clinic' },
        subscriber: { firstName: 'Ann', lastName: 'Lee', memberId: 'M1', dateOfBirth: '19800101' },
        dateOfCoverage: '20250101',
      },
      { controlNumber: () => 4242 },
    );
    const segments = built.x12.split('~').filter(Boolean);
    const hl3 = segments.findIndex((s) => s.startsWith('HL*3*'));
    expect(segments[hl3 + 1]).toBe(`TRN*1*000004242*${TRACE_ORIGINATOR}`);
    expect(TRACE_ORIGINATOR).toHaveLength(10);
    const read = read270(built.x12);
    expect(read.ok && read.inquiry.trace).toEqual({ number: '000004242', originator: TRACE_ORIGINATOR });
  });
});
