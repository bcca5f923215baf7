import { describe, it, expect } from '@jest/globals';
import { rejection } from '../../lib/x12/aaa.js';
import { FOLLOW_UP_ACTIONS, followUpAction, knownRejectReason, rejectReason } from '../../lib/x12/aaa-codes.js';
import { readReply } from '../../lib/eligibility/reply.js';
import { envelope } from '../fixtures/x12/build.js';

describe('AAA code tables', () => {
  it('lists every AAA03 reject reason of 005010X279A1', () => {
    const codes =
      '04 15 33 35 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 97 98 AA AE AF AG AO CI E8 IA MA T4'.split(
        ' ',
      );
    // Of every code of one or two printable ASCII characters, and of three letters or digits (AAA03 is two),
    // exactly the listed ones have a description: none is missing, and the table has no other key that a
    // code could be or a typo could make.
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
    const alphanumeric = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'];
    const pairs = printable.flatMap((a) => printable.map((b) => a + b));
    const triples = alphanumeric.flatMap((a) => alphanumeric.flatMap((b) => alphanumeric.map((c) => a + b + c)));
    const known = [...printable, ...pairs, ...triples].filter((code) => knownRejectReason(code) !== undefined);
    expect(known.sort()).toEqual([...codes].sort());
    for (const code of codes) expect(knownRejectReason(code)!.length).toBeGreaterThan(5);
    expect(rejectReason('72')).toBe('Invalid/Missing Subscriber/Insured ID');
    expect(rejectReason('42')).toBe('Unable to Respond at Current Time');
    expect(rejectReason('ZZ')).toBe('Unknown reject reason code');
  });
  it('lists every AAA04 follow-up action and formats it as "code: text"', () => {
    expect(Object.keys(FOLLOW_UP_ACTIONS).sort()).toEqual(['C', 'N', 'P', 'R', 'S', 'W', 'X', 'Y']);
    expect(followUpAction('C')).toBe('C: Please Correct and Resubmit');
    expect(followUpAction('Q')).toBe('Q: Unknown follow-up action');
    expect(followUpAction('')).toBe('');
  });
});

describe('the AAAs of a reply', () => {
  it('turns each AAA into {code, description, followUpAction, loop}', () => {
    const reply = readReply(envelope(['HL*1**20*1', 'AAA*Y**42*R', 'NM1*PR*2*P', 'HL*2*1*21*1', 'NM1*1P*2*C', 'HL*3*2*22*0', 'NM1*IL*1*A', 'AAA*N**75*C']));
    if (!reply.ok) throw new Error('unreadable');
    expect(reply.transactions[0]!.aaa).toEqual([
      { code: '42', description: 'Unable to Respond at Current Time', followUpAction: 'R: Resubmission Allowed', loop: '2000A' },
      { code: '75', description: 'Subscriber/Insured Not Found', followUpAction: 'C: Please Correct and Resubmit', loop: '2100C' },
    ]);
  });
});

describe('code lookups take own keys only', () => {
  it('an AAA03 or AAA04 naming an Object.prototype member is unknown, not a function', () => {
    expect(rejection('constructor', 'toString', '2100C')).toEqual({
      code: 'constructor',
      description: 'Unknown reject reason code',
      followUpAction: 'toString: Unknown follow-up action',
      loop: '2100C',
    });
    expect(rejection('72', 'C', '2100C')).toEqual({
      code: '72',
      description: 'Invalid/Missing Subscriber/Insured ID',
      followUpAction: 'C: Please Correct and Resubmit',
      loop: '2100C',
    });
  });
});
