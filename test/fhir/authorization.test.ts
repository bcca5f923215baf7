/**
 * Authorization per network in FHIR items (docs/fhir.md#benefits): each network's items carry that
 * network's answer of the eligibility entry (docs/eligibility.md#authorization-per-network).
 */
import { describe, expect, it } from '@jest/globals';
import { interpret271Figures } from '../../lib/eligibility/interpret.js';
import { itemsOf } from '../../lib/fhir/items.js';
import { response271 } from '../fixtures/x12/build.js';

const eb = (...elements: string[]) => ['EB', ...elements].join('*');

function surgeryItems(ebs: string[]) {
  const read = interpret271Figures(response271(['EB*1**30^2', ...ebs]), { serviceTypeCodes: ['2'] });
  if (!read.result.ok) throw new Error(read.result.error.message);
  const entry = read.result.value.benefits.find((b) => b.serviceType.code === '2')!;
  const items = itemsOf({ ...entry, name: entry.serviceType.name }, entry);
  const byNetwork = (code: string) => items.filter((item) => item.network?.coding?.[0]?.code === code);
  return { inNetwork: byNetwork('in'), outNetwork: byNetwork('out') };
}

describe('FHIR authorization per network', () => {
  it('required in network with the payer’s note, not required out of network', () => {
    const { inNetwork, outNetwork } = surgeryItems([
      eb('A', 'IND', '2', '', '', '', '', '.2', '', '', 'Y', 'Y'),
      'MSG*PRIOR AUTH REQUIRED FOR INPATIENT SURGERY',
      eb('A', 'IND', '2', '', '', '', '', '.4', '', '', 'N', 'N'),
    ]);
    expect(inNetwork.length).toBeGreaterThan(0);
    for (const item of inNetwork) {
      expect(item.authorizationRequired).toBe(true);
      expect(item.authorizationSupporting).toEqual([{ text: 'PRIOR AUTH REQUIRED FOR INPATIENT SURGERY' }]);
    }
    expect(outNetwork.length).toBeGreaterThan(0);
    for (const item of outNetwork) expect(item.authorizationRequired).toBe(false);
  });
  it('"some" is required, with a sentence saying it is for some services', () => {
    const { inNetwork } = surgeryItems([
      eb('B', 'IND', '2', '', '', '27', '250', '', '', '', 'Y', 'Y'),
      eb('B', 'IND', '2', '', '', '27', '50', '', '', '', 'N', 'W'),
    ]);
    expect(inNetwork[0]!.authorizationRequired).toBe(true);
    expect(inNetwork[0]!.authorizationSupporting![0]!.text).toContain('some services');
  });
});
