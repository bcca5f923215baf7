import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import { errorForRejections } from '../../lib/x12/rejections.js';
import { envelope, response271 } from '../fixtures/x12/build.js';

const fixture = readFileSync(new URL('../fixtures/x12/subscriber-benefits.271', import.meta.url), 'utf8');
const PATIENT_VALUES = ['SAMPLE', 'PAT', '00012345', '19800101', '1 TEST WAY', 'TESTVILLE'];

function error(x12: string) {
  const out = interpret271(x12);
  if (out.result.ok) throw new Error('expected an error');
  return { ...out, error: out.result.error };
}

describe('interpret271: success', () => {
  it('summarizes a clean 271 with no warnings and no AAA codes', () => {
    const out = interpret271(fixture);
    expect(out.warnings).toEqual([]);
    expect(out.aaaCodes).toEqual([]);
    expect(out.result.ok).toBe(true);
    if (out.result.ok) {
      expect(out.result.value.payerName).toBe('FIXTURE HEALTH PLAN');
      expect(out.result.value.inNetwork.individual.copay).toBe('$25.00');
    }
  });
  it('survives a BOM, CR/LF and a broken SE count, reporting a warning without patient data', () => {
    const damaged = `\uFEFF${fixture.replaceAll('\n', '\r\n').replace('SE*34*0771', 'SE*12*0771')}`;
    const out = interpret271(damaged);
    expect(out.result.ok).toBe(true);
    expect(out.warnings).toEqual(['segment 36: SE01 count 12 != 34']);
  });
  it('warnings never contain patient values', () => {
    const damaged = fixture.replace('SE*34*0771~', '').replace('NM1*IL', 'NM1*IL*X*Y').replace('HL*3*2*22*0', 'HL*3*8*22*1');
    const out = interpret271(`garbage${damaged}`);
    expect(out.warnings.length).toBeGreaterThan(2);
    for (const warning of out.warnings) for (const value of PATIENT_VALUES) expect(warning).not.toContain(value);
  });
});

describe('interpret271: AAA', () => {
  it('422 PAYER_REJECTED when any code is other than 42/79/80, with every rejection', () => {
    const out = error(
      response271(['EB*1**30'])
        .replace('DMG*D8*19800101~', 'DMG*D8*19800101~\nAAA*N**42*P~\nAAA*N**72*C~')
        .replace(/SE\*(\d+)/, (_, n) => `SE*${Number(n) + 2}`),
    );
    expect(out.error.status).toBe(422);
    expect(out.error.code).toBe('PAYER_REJECTED');
    expect(out.aaaCodes).toEqual(['42', '72']);
    expect(out.error.rejections).toEqual([
      { code: '42', description: 'Unable to Respond at Current Time', followUpAction: 'P: Please Resubmit Original Transaction', loop: '2100C' },
      { code: '72', description: 'Invalid/Missing Subscriber/Insured ID', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' },
    ]);
  });
  it('503 PAYER_UNAVAILABLE when codes are only 42/80 (and 79)', () => {
    const out = error(envelope(['HL*1**20*0', 'AAA*Y**79*N', 'NM1*PR*2*P', 'AAA*N**80*P']));
    expect(out.error.code).toBe('PAYER_UNAVAILABLE');
    expect(out.error.status).toBe(503);
    expect(out.error.retryAfterSeconds).toBeGreaterThan(0);
    expect(out.error.rejections!.map((r) => r.loop)).toEqual(['2000A', '2100A']);
  });
  it('502 UPSTREAM_ERROR when the only code is 79', () => {
    const out = error(envelope(['HL*1**20*0', 'NM1*PR*2*P', 'AAA*N**79*C']));
    expect(out.error.code).toBe('UPSTREAM_ERROR');
    expect(out.error.rejections).toHaveLength(1);
  });
  it('an AAA in a 2110 loop still fails the check', () => {
    const out = error(response271(['EB*1**30', 'AAA*Y**70*C']));
    expect(out.error.rejections![0]!.loop).toBe('2110C');
  });
  it('errorForRejections follows the table order', () => {
    const r = (code: string) => ({ code, description: '', followUpAction: '', loop: '2100C' });
    expect(errorForRejections([r('42'), r('75')]).code).toBe('PAYER_REJECTED');
    expect(errorForRejections([r('79'), r('80')]).code).toBe('PAYER_UNAVAILABLE');
    expect(errorForRejections([r('79')]).code).toBe('UPSTREAM_ERROR');
  });
});

describe('interpret271: unreadable replies are 502', () => {
  it('a 999', () => {
    const out = error(envelope(['AK1*HS*1*005010X279A1', 'AK9*R*1*1*0'], { setId: '999', version: '005010X231A1' }));
    expect(out.error.code).toBe('UPSTREAM_ERROR');
    expect(out.error.rejections).toBeUndefined();
    expect(out.warnings).toContain('reply is a 999 acknowledgment: the 270 was rejected');
  });
  it('not X12 at all', () => {
    const out = error('{"not":"x12"}');
    expect(out.error.status).toBe(502);
    expect(out.warnings).toEqual(['offset 0: no ISA segment found']);
  });
  it('a 271 with no 2000C and no AAA', () => {
    expect(error(envelope(['BHT*0022*11', 'HL*1**20*1', 'NM1*PR*2*P', 'HL*2*1*21*0', 'NM1*1P*2*C'])).error.code).toBe('UPSTREAM_ERROR');
  });
  it('an empty string', () => {
    expect(error('').error.code).toBe('UPSTREAM_ERROR');
  });
  it('an EB01 that names an Object.prototype member', () => {
    const text = fixture.replace('EB*1*', 'EB*constructor*');
    expect(() => interpret271(text)).not.toThrow();
    expect(interpret271(text).result.ok).toBe(true);
  });
});
