import { describe, it, expect } from '@jest/globals';
import { readEnvelope } from '../../lib/x12/envelope.js';
import { element } from '../../lib/x12/segment.js';
import { tokenize } from '../../lib/x12/tokenizer.js';
import { envelope, ISA } from '../fixtures/x12/build.js';

function read(text: string) {
  const tokens = tokenize(text);
  if (!tokens.ok) throw new Error(tokens.error.message);
  return readEnvelope(tokens.segments);
}

describe('readEnvelope', () => {
  it('groups a correct interchange with no warnings', () => {
    const env = read(envelope(['BHT*0022*11', 'HL*1**20*0']));
    expect(env.warnings).toEqual([]);
    expect(env.transactions).toHaveLength(1);
    const [tx] = env.transactions;
    expect(tx!.setId).toBe('271');
    expect(element(tx!.st, 3)).toBe('005010X279A1');
    expect(tx!.body.map((s) => s.id)).toEqual(['BHT', 'HL']);
  });

  it('warns on SE01 count and SE02 control-number mismatches with positions, not values', () => {
    const text = envelope(['BHT*0022*11']).replace('SE*3*0001', 'SE*12*0099');
    const env = read(text);
    expect(env.warnings).toContain('segment 5: SE01 count 12 != 3');
    expect(env.warnings).toContain('segment 5: SE02 does not match ST02');
    expect(env.warnings.join()).not.toContain('0099');
  });

  it('warns on GE/IEA count and control-number mismatches', () => {
    const text = envelope(['BHT*0022*11']).replace('GE*1*7', 'GE*2*8').replace('IEA*1*000000042', 'IEA*3*000000043');
    const env = read(text);
    expect(env.warnings).toEqual([
      'segment 6: GE01 count 2 != 1',
      'segment 6: GE02 does not match GS06',
      'segment 7: IEA01 count 3 != 1',
      'segment 7: IEA02 does not match ISA13',
    ]);
  });

  it('tolerates a truncated interchange (no SE, GE or IEA)', () => {
    const text = `${ISA}GS*HB*A*B*20250101*1200*7*X*005010X279A1~ST*271*0001*005010X279A1~BHT*0022*11~HL*1**20*0~`;
    const env = read(text);
    expect(env.transactions[0]!.body).toHaveLength(2);
    expect(env.warnings).toEqual([
      'segment 3: transaction set has no SE (end of input)',
      'segment 2: no GE (end of input)',
      'segment 1: no IEA (end of input)',
    ]);
  });

  it('keeps several ST in a GS and several GS and ISA', () => {
    const one = envelope(['BHT*0022*11']);
    const two = one.replace('GE*1*7~', 'ST*999*0002~AK1*HS*7~SE*3*0002~GE*2*7~');
    const env = read(`${two}\n${one}`);
    const sets = env.transactions.map((t) => t.setId);
    expect(sets).toEqual(['271', '999', '271']);
    expect(env.warnings).toEqual([]);
  });

  it('warns about mixed versions', () => {
    const text = envelope(['BHT*0022*11']).replace('*X*005010X279A1~', '*X*004010X092A1~');
    const env = read(text);
    expect(env.warnings).toContain('segment 2: GS08 version differs from ISA12');
    expect(env.warnings).toContain('segment 3: ST03 version differs from GS08');
  });

  it('warns about segments outside a transaction and ST without GS', () => {
    const env = read(`${ISA}ST*271*0001~SE*2*0001~REF*XX*1~IEA*1*000000042~`);
    expect(env.warnings).toContain('segment 2: ST outside a functional group');
    expect(env.warnings).toContain('segment 4: REF outside a transaction set');
  });
});
