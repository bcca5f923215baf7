import { describe, expect, it } from '@jest/globals';
import { MAX_COVERAGES, readStediDiscovery, stediDiscoveryRequest } from '../../lib/discovery/from-stedi.js';
import { DISCOVERED_PATIENTS, MBI_SANDBOX_PATIENTS } from '../../infra/dev/sandbox/discovery.js';
import { SANDBOX_PAYERS } from '../../infra/dev/sandbox/payer-list.js';

/** Stedi's discovery in and out (docs/finding-coverage.md#upstream): the fields sent, the fields read, the rest ignored. */

describe('the discovery request', () => {
  it('carries the cleaned patient, the NPI and the date of service in Stedi’s fields and date form', () => {
    const body = stediDiscoveryRequest(
      {
        patientFirstName: 'Ana~María*',
        patientLastName: 'Ruiz',
        patientDOB: '04-12-1980',
        patientGender: 'F',
        patientSSN: '123-45-6789',
        patientAddress: { street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701-1234' },
        dateOfService: '03-01-2025',
        providerId: 'P',
      },
      '1234567893',
    );
    expect(body).toEqual({
      provider: { npi: '1234567893' },
      subscriber: {
        firstName: 'ANA MARÍA',
        lastName: 'RUIZ',
        dateOfBirth: '19800412',
        gender: 'F',
        ssn: '123456789',
        address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '627011234' },
      },
      encounter: { dateOfService: '20250301' },
    });
  });
});

describe('the discovery answer', () => {
  const item = (n: number) => ({
    payer: { name: `  Payer ${n}  `, payorIdentification: `P${n}` },
    subscriber: { memberId: `M${n}`, groupNumber: 'G-SUB' },
    planInformation: { groupNumber: `G${n}` },
    benefitsInformation: [{ code: '1' }],
  });

  it('reads the id, the status and per item the payer, member id, group number and raw 271; nothing of the JSON benefits', () => {
    const read = readStediDiscovery(200, { discoveryId: 'd-1', status: 'COMPLETE', items: [item(1), { ...item(2), planInformation: {}, x12: 'ISA*…' }] });
    expect(read).toEqual({
      ok: true,
      value: {
        upstreamId: 'd-1',
        status: 'COMPLETE',
        found: [
          { payerName: 'Payer 1', payerId: 'P1', memberId: 'M1', groupNumber: 'G1' },
          { payerName: 'Payer 2', payerId: 'P2', memberId: 'M2', groupNumber: 'G-SUB', x12: 'ISA*…' },
        ],
      },
    });
  });

  it(`keeps at most ${MAX_COVERAGES} coverages, and none while PENDING`, () => {
    const many = readStediDiscovery(200, { discoveryId: 'd', status: 'COMPLETE', items: Array.from({ length: 50 }, (_, i) => item(i)) });
    expect(many.ok && many.value.found).toHaveLength(MAX_COVERAGES);
    expect(readStediDiscovery(200, { discoveryId: 'd', status: 'PENDING', items: [item(1)] })).toEqual({
      ok: true,
      value: { upstreamId: 'd', status: 'PENDING', found: [] },
    });
  });

  it('answers 502 UPSTREAM_ERROR for an ERROR status, a missing id or status, or a refused request', () => {
    for (const [status, body] of [
      [200, { discoveryId: 'd', status: 'ERROR' }],
      [200, { status: 'COMPLETE' }],
      [200, { discoveryId: 'd' }],
      [400, { message: 'bad request' }],
    ] as const) {
      expect(readStediDiscovery(status, body)).toMatchObject({ ok: false, error: { code: 'UPSTREAM_ERROR', status: 502 } });
    }
  });
});

describe('the sandbox’s discovery and lookup payers', () => {
  it('are rows of the sandbox payer directory, by id and by name', () => {
    const named = [...DISCOVERED_PATIENTS, ...MBI_SANDBOX_PATIENTS.map((m) => m.patient)].map((p) => [p.payerId, p.payerName]);
    expect(named.length).toBeGreaterThan(0);
    for (const [payerId, payerName] of named) {
      expect([payerId, SANDBOX_PAYERS.find((row) => row.payerId === payerId)?.name]).toEqual([payerId, payerName]);
    }
  });
});
