import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { interpret271 } from '../../lib/eligibility/interpret.js';
import type { BenefitSummary } from '../../lib/eligibility/types.js';
import { response271 } from '../fixtures/x12/build.js';

/** The plan-wide slot rules (docs/eligibility.md#filling-a-slot); the r2 rules are in answer.test.ts. */
function summaryOf(text: string): BenefitSummary {
  const read = interpret271(text);
  if (!read.result.ok) throw new Error(read.result.error.message);
  return read.result.value;
}
const of = (ebs: string[], options?: { dependent?: boolean }) => summaryOf(response271(ebs, options));

describe('the subscriber fixture', () => {
  it('fills every slot it carries', () => {
    const s = summaryOf(readFileSync(new URL('../fixtures/x12/subscriber-benefits.271', import.meta.url), 'utf8'));
    expect({ coverageStatus: s.coverageStatus, payerName: s.payerName, inNetwork: s.inNetwork, outNetwork: s.outNetwork }).toEqual({
      coverageStatus: 'Active',
      payerName: 'FIXTURE HEALTH PLAN',
      inNetwork: {
        individual: {
          copay: '$25.00',
          deductible: { total: '$1,500.00', remaining: '$1,234.50' },
          coinsurance: '20%',
          stopLoss: '$6,000.00',
          stopLossRemaining: 'N/A',
        },
        family: {
          copay: '$40.00',
          deductible: { total: '$3,000.00', remaining: '$2,249.75' },
          coinsurance: 'N/A',
          stopLoss: '$12,000.00',
          stopLossRemaining: 'N/A',
        },
      },
      outNetwork: {
        individual: { copay: '$50.00', deductible: { total: '$3,000.00', remaining: 'N/A' }, coinsurance: '12.5%', stopLoss: 'N/A', stopLossRemaining: 'N/A' },
        family: { copay: 'N/A', deductible: { total: 'N/A', remaining: 'N/A' }, coinsurance: 'N/A', stopLoss: 'N/A', stopLossRemaining: 'N/A' },
      },
    });
  });
});

describe('patient loop', () => {
  it('uses 2000D when present, ignoring the subscriber rows', () => {
    const text = response271(['EB*B*IND*30***27*15', 'EB*1**30'], { dependent: true }).replace('HL*4*3*23*0~', 'EB*B*IND*30***27*99~\nHL*4*3*23*0~');
    const s = summaryOf(text.replace(/SE\*(\d+)\*/, (_, n) => `SE*${Number(n) + 1}*`));
    expect(s.inNetwork.individual.copay).toBe('$15.00');
  });
  it('uses 2000C when there is no 2000D', () => {
    expect(of(['EB*B*IND*30***27*15']).inNetwork.individual.copay).toBe('$15.00');
  });
});

describe('coverageStatus', () => {
  it('Active when any EB01 is 1-5', () => expect(of(['EB*6**30', 'EB*3**30']).coverageStatus).toBe('Active'));
  it('Inactive when only 6-8', () => expect(of(['EB*8**30', 'EB*B*IND*30***27*5']).coverageStatus).toBe('Inactive'));
  it('Unknown otherwise', () => expect(of(['EB*B*IND*30***27*5']).coverageStatus).toBe('Unknown'));
});

describe('payerName', () => {
  it('is the 2100A NM103', () => expect(summaryOf(response271([], { payerName: 'ACME MUTUAL' })).payerName).toBe('ACME MUTUAL'));
});

describe('rows per field', () => {
  it('copay needs EB07, coinsurance EB08, deductible and stopLoss EB07', () => {
    const s = of(['EB*B*IND*30', 'EB*A*IND*30', 'EB*C*IND*30***23', 'EB*G*IND*30***23']);
    expect(s.inNetwork.individual).toEqual({
      copay: 'N/A',
      deductible: { total: 'N/A', remaining: 'N/A' },
      coinsurance: 'N/A',
      stopLoss: 'N/A',
      stopLossRemaining: 'N/A',
    });
  });
  it('drops rows with an EB13 procedure code', () => {
    const s = of(['EB*B*IND*30***27*99******HC:99213', 'EB*B*IND*30***27*10']);
    expect(s.inNetwork.individual.copay).toBe('$10.00');
    expect(of(['EB*B*IND*30***27*99******HC:99213']).inNetwork.individual.copay).toBe('N/A');
  });
  it('drops MA rows for every field when any row is MB', () => {
    const s = of(['EB*C*IND*30*MA**23*1632', 'EB*C*IND*30*MB**23*257', 'EB*A*IND*30*MA****.5', 'EB*B*IND*30*MA**27*7']);
    expect(s.inNetwork.individual.deductible.total).toBe('$257.00');
    expect(s.inNetwork.individual.coinsurance).toBe('N/A');
    expect(s.inNetwork.individual.copay).toBe('N/A');
  });
  it('keeps MA rows when no row is MB', () => {
    expect(of(['EB*C*IND*30*MA**23*1632']).inNetwork.individual.deductible.total).toBe('$1,632.00');
  });
});

describe('network fit', () => {
  it('in takes Y/W/U/empty, out takes N/W/U/empty', () => {
    const s = of(['EB*B*IND*30***27*1*****Y', 'EB*B*IND*30***27*2*****N']);
    expect(s.inNetwork.individual.copay).toBe('$1.00');
    expect(s.outNetwork.individual.copay).toBe('$2.00');
    for (const code of ['W', 'U', '']) {
      const both = of([`EB*B*IND*30***27*3*****${code}`]);
      expect([both.inNetwork.individual.copay, both.outNetwork.individual.copay]).toEqual(['$3.00', '$3.00']);
    }
  });
  it('Y/N beat W/U/empty regardless of order', () => {
    const s = of(['EB*B*IND*30***27*3*****W', 'EB*B*IND*30***27*1*****Y']);
    expect(s.inNetwork.individual.copay).toBe('$1.00');
    expect(s.outNetwork.individual.copay).toBe('$3.00');
  });
});

describe('level fit', () => {
  it('individual takes IND, EMP or empty, preferring IND then EMP', () => {
    expect(of(['EB*B**30***27*3', 'EB*B*EMP*30***27*2', 'EB*B*IND*30***27*1']).inNetwork.individual.copay).toBe('$1.00');
    expect(of(['EB*B**30***27*3', 'EB*B*EMP*30***27*2']).inNetwork.individual.copay).toBe('$2.00');
    expect(of(['EB*B**30***27*3']).inNetwork.individual.copay).toBe('$3.00');
  });
  it('family takes FAM, or empty only for copay and coinsurance', () => {
    const s = of(['EB*B**30***27*3', 'EB*A**30*****.1', 'EB*C**30***23*500', 'EB*G**30***23*900']);
    expect(s.inNetwork.family.copay).toBe('$3.00');
    expect(s.inNetwork.family.coinsurance).toBe('10%');
    expect(s.inNetwork.family.deductible.total).toBe('N/A');
    expect(s.inNetwork.family.stopLoss).toBe('N/A');
    expect(s.inNetwork.individual.deductible.total).toBe('$500.00');
    expect(s.inNetwork.individual.stopLoss).toBe('$900.00');
  });
  it('other levels never fit', () => {
    const s = of(['EB*B*SPO*30***27*3', 'EB*B*CHD*30***27*4']);
    expect([s.inNetwork.individual.copay, s.inNetwork.family.copay]).toEqual(['N/A', 'N/A']);
  });
});

describe('service fit', () => {
  it('copay prefers 30, then 98, then none, then 1', () => {
    expect(of(['EB*B*IND*1***27*4', 'EB*B*IND****27*3', 'EB*B*IND*98***27*2', 'EB*B*IND*30***27*1']).inNetwork.individual.copay).toBe('$1.00');
    expect(of(['EB*B*IND*1***27*4', 'EB*B*IND****27*3', 'EB*B*IND*98***27*2']).inNetwork.individual.copay).toBe('$2.00');
    expect(of(['EB*B*IND*1***27*4', 'EB*B*IND****27*3']).inNetwork.individual.copay).toBe('$3.00');
    expect(of(['EB*B*IND*1***27*4']).inNetwork.individual.copay).toBe('$4.00');
  });
  it('deductible prefers 30, then none, then 1; 98 does not fit', () => {
    expect(of(['EB*C*IND*98***23*9', 'EB*C*IND*1***23*4', 'EB*C*IND****23*3']).inNetwork.individual.deductible.total).toBe('$3.00');
    expect(of(['EB*C*IND*98***23*9']).inNetwork.individual.deductible.total).toBe('N/A');
  });
  it('uses the best code a row lists (repetitions)', () => {
    expect(of(['EB*B*IND*98***27*2', 'EB*B*IND*33^30^1***27*1']).inNetwork.individual.copay).toBe('$1.00');
  });
  it('rows listing none of the codes never fit', () => {
    expect(of(['EB*B*IND*33^35***27*1']).inNetwork.individual.copay).toBe('N/A');
  });
});

describe('time fit', () => {
  it('deductible total and stopLoss prefer EB06 23, 22, 21, 25, empty', () => {
    const order = ['', '25', '21', '22', '23'];
    for (let n = 0; n < order.length; n++) {
      const rows = order.slice(0, n + 1).map((t, i) => `EB*C*IND*30***${t}*${i + 1}`);
      expect(of(rows).inNetwork.individual.deductible.total).toBe(`$${n + 1}.00`);
      const stop = order.slice(0, n + 1).map((t, i) => `EB*G*IND*30***${t}*${i + 1}`);
      expect(of(stop).inNetwork.individual.stopLoss).toBe(`$${n + 1}.00`);
    }
  });
  it('other time periods do not fit a total', () => {
    expect(of(['EB*C*IND*30***27*5', 'EB*C*IND*30***29*4']).inNetwork.individual.deductible.total).toBe('N/A');
  });
  it('copay and coinsurance ignore EB06', () => {
    expect(of(['EB*B*IND*30***7*5']).inNetwork.individual.copay).toBe('$5.00');
    expect(of(['EB*A*IND*30***7**.3']).inNetwork.individual.coinsurance).toBe('30%');
  });
});

describe('best ordering', () => {
  it('service beats time', () => {
    expect(of(['EB*C*IND****23*2', 'EB*C*IND*30***25*1']).inNetwork.individual.deductible.total).toBe('$1.00');
  });
  it('time beats network', () => {
    expect(of(['EB*C*IND*30***22*2*****Y', 'EB*C*IND*30***23*1']).inNetwork.individual.deductible.total).toBe('$1.00');
  });
  it('network beats level', () => {
    expect(of(['EB*B*IND*30***27*2', 'EB*B**30***27*1*****Y']).inNetwork.individual.copay).toBe('$1.00');
  });
  it('document order breaks ties', () => {
    expect(of(['EB*B*IND*30***27*1', 'EB*B*IND*30***27*2']).inNetwork.individual.copay).toBe('$1.00');
  });
});

describe('deductible remaining', () => {
  it('takes the best EB06 29 row', () => {
    const s = of(['EB*C*IND*30***29*40*****W', 'EB*C*IND*30***29*30*****Y', 'EB*C*IND*30***24*10', 'EB*C*IND*30***23*100']);
    expect(s.inNetwork.individual.deductible.remaining).toBe('$30.00');
    expect(s.outNetwork.individual.deductible.remaining).toBe('$40.00');
  });
  it('otherwise total minus year-to-date (EB06 24), exactly', () => {
    expect(of(['EB*C*IND*30***23*1000.10', 'EB*C*IND*30***24*249.95']).inNetwork.individual.deductible.remaining).toBe('$750.15');
  });
  it('floors at zero', () => {
    expect(of(['EB*C*IND*30***23*100', 'EB*C*IND*30***24*250']).inNetwork.individual.deductible.remaining).toBe('$0.00');
  });
  it('N/A without a 29 row and without a total or a 24 row', () => {
    expect(of(['EB*C*IND*30***24*250']).inNetwork.individual.deductible.remaining).toBe('N/A');
    expect(of(['EB*C*IND*30***23*250']).inNetwork.individual.deductible.remaining).toBe('N/A');
  });
  it('an empty EB02 is the individual remaining, never the family', () => {
    const s = of(['EB*C**30***29*12']);
    expect([s.inNetwork.individual.deductible.remaining, s.inNetwork.family.deductible.remaining]).toEqual(['$12.00', 'N/A']);
  });
});

describe('values', () => {
  it('rounds money half away from zero and groups thousands', () => {
    expect(of(['EB*B*IND*30***27*1234.505']).inNetwork.individual.copay).toBe('$1,234.51');
    expect(of(['EB*B*IND*30***27*0']).inNetwork.individual.copay).toBe('$0.00');
  });
  it('coinsurance is EB08 x 100 with trailing zeros dropped', () => {
    expect(of(['EB*A*IND*30*****0.125']).inNetwork.individual.coinsurance).toBe('12.5%');
    expect(of(['EB*A*IND*30*****0']).inNetwork.individual.coinsurance).toBe('0%');
  });
  it('a value that is not a decimal counts as missing', () => {
    expect(of(['EB*B*IND*30***27*ABC']).inNetwork.individual.copay).toBe('N/A');
  });
});
