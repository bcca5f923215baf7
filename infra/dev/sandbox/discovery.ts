/**
 * The sandbox clearinghouse's insurance discovery and Medicare number lookup (docs/finding-coverage.md#sandbox-patients):
 * Stedi's discovery endpoints (`POST /insurance-discovery/check/v1`, `GET …/{discoveryId}`) and the
 * answers to a 270 sent to the lookup payers MBILU and MBILUNOSSN, for the documented patients below.
 * Every payer a coverage names is a row of the sandbox payer directory (./payer-list.ts), looked up
 * by id here, so the two cannot disagree. Anyone else: no coverage found, or AAA 75 for a lookup.
 */
import { randomUUID } from 'node:crypto';
import { SANDBOX_PAYERS } from './payer-list.js';
import { PPO_BENEFITS, type SandboxPatient } from './patient-rows.js';
import type { Inquiry270 } from './read270.js';
import { clockOf, write271 } from './reply271.js';

export const DISCOVERY_ROUTE = '/insurance-discovery/check/v1';

/** A directory row by id: a coverage can only name a payer the directory lists. */
function payer(payerId: string): { payerId: string; payerName: string } {
  const row = SANDBOX_PAYERS.find((p) => p.payerId === payerId);
  if (!row) throw new Error(`sandbox discovery names payer ${payerId}, which the sandbox payer directory does not list`);
  return { payerId: row.payerId, payerName: row.name };
}

interface SandboxCoverage {
  patient: SandboxPatient;
  groupNumber: string;
  /** The result carries the payer's raw 271 (the service then makes no check for it). */
  carriesX12?: boolean;
}

export interface DiscoverySandboxPatient {
  firstName: string;
  lastName: string;
  /** MM-DD-YYYY */
  dob: string;
  scenario: string;
  /** PENDING answers before COMPLETE (the start counts as the first). */
  pendingAnswers: number;
  coverages: SandboxCoverage[];
}

const active = (firstName: string, lastName: string, dob: string, payerId: string, memberId: string, scenario: string): SandboxPatient => ({
  firstName,
  lastName,
  dob,
  memberId,
  ...payer(payerId),
  scenario,
  planBegin: '20250101',
  benefits: PPO_BENEFITS,
});

export const DISCOVERY_SANDBOX_PATIENTS: readonly DiscoverySandboxPatient[] = [
  {
    firstName: 'Dana',
    lastName: 'Quest',
    dob: '04-12-1980',
    scenario: 'found at once: one Aetna coverage whose raw 271 the result carries (no further check)',
    pendingAnswers: 0,
    coverages: [{ patient: active('Dana', 'Quest', '04-12-1980', '60054', 'AET500001', 'discovered Aetna PPO'), groupNumber: 'GRP-AET-1', carriesX12: true }],
  },
  {
    firstName: 'Evan',
    lastName: 'Waite',
    dob: '08-19-1975',
    scenario: 'PENDING first; the next poll finds one UnitedHealthcare coverage (one eligibility check for it)',
    pendingAnswers: 1,
    coverages: [{ patient: active('Evan', 'Waite', '08-19-1975', '87726', 'UHC500002', 'discovered UnitedHealthcare plan'), groupNumber: 'GRP-UHC-2' }],
  },
  {
    firstName: 'Grace',
    lastName: 'Twofold',
    dob: '02-02-1988',
    scenario: 'found at once: two coverages, an active Cigna plan and an inactive Humana plan (one check each)',
    pendingAnswers: 0,
    coverages: [
      { patient: active('Grace', 'Twofold', '02-02-1988', '62308', 'CIG500003', 'discovered Cigna plan'), groupNumber: 'GRP-CIG-3' },
      {
        patient: {
          ...active('Grace', 'Twofold', '02-02-1988', '61101', 'HUM500004', 'discovered Humana plan, ended'),
          benefits: [{ info: '6', services: ['30'], insuranceType: 'PR', planDescription: 'HUMANA GOLD' }],
        },
        groupNumber: 'GRP-HUM-4',
      },
    ],
  },
  { firstName: 'Noah', lastName: 'Nobody', dob: '10-10-1992', scenario: 'no coverage found', pendingAnswers: 0, coverages: [] },
];

/** The patients a coverage check (a 270 to the coverage's payer) finds. */
export const DISCOVERED_PATIENTS: readonly SandboxPatient[] = DISCOVERY_SANDBOX_PATIENTS.flatMap((p) => p.coverages.map((c) => c.patient));

/** The discovered coverage a check (a 270 to its payer) names, by payer, member id, name and date of birth. */
export function findDiscoveredPatient(inquiry: Inquiry270): SandboxPatient | undefined {
  return DISCOVERED_PATIENTS.find(
    (p) =>
      same(p.payerId, inquiry.payerId) &&
      same(p.memberId, inquiry.memberId) &&
      same(p.firstName, inquiry.firstName) &&
      same(p.lastName, inquiry.lastName) &&
      d8(p.dob) === inquiry.dateOfBirth,
  );
}

export interface MbiSandboxPatient {
  patient: SandboxPatient;
  /** How the lookup finds them: by SSN (MBILU) or, without one, by state (MBILUNOSSN). */
  ssn?: string;
  state?: string;
}

const MEDICARE_AB = [
  { info: '1', services: ['30'], insuranceType: 'MA' },
  { info: '1', services: ['30'], insuranceType: 'MB' },
  { info: 'C', level: 'IND', services: ['30'], insuranceType: 'MB', timePeriod: '29', amount: '257' },
  { info: 'A', level: 'IND', services: ['30'], insuranceType: 'MB', percent: '.2' },
];

const medicare = (firstName: string, lastName: string, dob: string, mbi: string, payerId: string): SandboxPatient => ({
  firstName,
  lastName,
  dob,
  memberId: mbi,
  ...payer(payerId),
  scenario: 'Medicare number lookup: Original Medicare Parts A and B',
  planBegin: '20250101',
  benefits: MEDICARE_AB,
});

export const MBI_SANDBOX_PATIENTS: readonly MbiSandboxPatient[] = [
  { patient: medicare('Walter', 'Medi', '05-05-1950', '1EG4TE5MK74', 'MBILU'), ssn: '123456789' },
  { patient: medicare('Ruth', 'Medi', '07-04-1948', '2FH5UF6NL85', 'MBILUNOSSN'), state: 'OH' },
];

const same = (a: string, b: string | undefined): boolean => a.trim().toUpperCase() === (b ?? '').trim().toUpperCase();
const d8 = (usDate: string): string => `${usDate.slice(6, 10)}${usDate.slice(0, 2)}${usDate.slice(3, 5)}`;

/** The Medicare patient a lookup 270 names (payer, name, date of birth, and the SSN or the state). */
export function findMbiPatient(inquiry: Inquiry270): SandboxPatient | undefined {
  return MBI_SANDBOX_PATIENTS.find(
    (m) =>
      same(m.patient.payerId, inquiry.payerId) &&
      same(m.patient.firstName, inquiry.firstName) &&
      same(m.patient.lastName, inquiry.lastName) &&
      d8(m.patient.dob) === inquiry.dateOfBirth &&
      (m.ssn ? m.ssn === inquiry.ssn : same(m.state ?? '', inquiry.state)),
  )?.patient;
}

/** The payer's 271 for a discovered coverage, as if the 270 had asked for it. */
function raw271(patient: SandboxPatient, dateOfService: string, now: Date): string {
  const inquiry: Inquiry270 = {
    senderId: 'STEDI',
    receiverId: 'ELIGIBILITYAPI',
    interchangeControlNumber: '000000001',
    groupControlNumber: '1',
    transactionControlNumber: '0001',
    submitterReference: 'DISCOVERY',
    payerName: patient.payerName,
    payerId: patient.payerId,
    provider: ['1P', '2', 'SANDBOX CLINIC', '', '', '', '', 'XX', '1999999984'],
    lastName: patient.lastName.toUpperCase(),
    firstName: patient.firstName.toUpperCase(),
    memberId: patient.memberId,
    dateOfBirth: d8(patient.dob),
    dateOfService,
    serviceTypes: ['30'],
    procedures: [],
  };
  return write271(inquiry, patient, clockOf(now));
}

type Json = Record<string, unknown>;
const objectAt = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** Stedi's discovery endpoints, answering from memory; discoveries live as long as the sandbox. */
export function discoverySandbox(now: () => Date) {
  const running = new Map<string, { patient?: DiscoverySandboxPatient; pendingLeft: number; dateOfService: string }>();

  const answer = (discoveryId: string): { status: number; body: Json } => {
    const entry = running.get(discoveryId);
    if (!entry) return { status: 404, body: { message: 'Not Found' } };
    if (entry.pendingLeft > 0) {
      entry.pendingLeft--;
      return { status: 200, body: { discoveryId, status: 'PENDING', meta: { applicationMode: 'sandbox' } } };
    }
    const coverages = entry.patient?.coverages ?? [];
    const items = coverages.map((c) => ({
      payer: { name: c.patient.payerName, payorIdentification: c.patient.payerId },
      subscriber: {
        firstName: c.patient.firstName.toUpperCase(),
        lastName: c.patient.lastName.toUpperCase(),
        dateOfBirth: d8(c.patient.dob),
        memberId: c.patient.memberId,
        groupNumber: c.groupNumber,
      },
      planInformation: { groupNumber: c.groupNumber },
      confidence: { level: 'HIGH', reason: 'sandbox patient' },
      ...(c.carriesX12 ? { x12: raw271(c.patient, entry.dateOfService, now()) } : {}),
    }));
    return { status: 200, body: { discoveryId, status: 'COMPLETE', coveragesFound: items.length, items, meta: { applicationMode: 'sandbox' } } };
  };

  return {
    /** POST: starts a discovery for the subscriber named; answers at once unless the patient answers PENDING first. */
    start(body: Json): { status: number; body: Json } {
      const subscriber = objectAt(body.subscriber);
      if (!objectAt(body.provider).npi || typeof subscriber.firstName !== 'string' || typeof subscriber.lastName !== 'string') {
        return { status: 400, body: { message: 'provider.npi, subscriber.firstName and subscriber.lastName are required' } };
      }
      const patient = DISCOVERY_SANDBOX_PATIENTS.find(
        (p) => same(p.firstName, subscriber.firstName as string) && same(p.lastName, subscriber.lastName as string) && d8(p.dob) === subscriber.dateOfBirth,
      );
      const discoveryId = randomUUID();
      const dateOfService = String(objectAt(body.encounter).dateOfService ?? '');
      running.set(discoveryId, { ...(patient ? { patient } : {}), pendingLeft: patient?.pendingAnswers ?? 0, dateOfService });
      return answer(discoveryId);
    },
    /** GET by id. */
    result: (discoveryId: string) => answer(discoveryId),
  };
}
