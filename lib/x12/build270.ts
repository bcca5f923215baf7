/**
 * Builds the 005010X279A1 270 the service sends (docs/eligibility.md#the-270). One EQ segment per
 * service type code (default 30), then one per procedure code (EQ02 composite HC:, or AD: for a
 * CDT code): every payer accepts repeated EQ loops, while EQ01 repetitions are not supported by
 * all of them. Values go through cleanElement (./clean.ts, shared with the COB request) so patient
 * data can never break the envelope. Control numbers come from an injected generator (default crypto random),
 * or, for a batch attempt, from its upstream request key ({@link controlNumberOfKey}).
 */
import { createHash, randomInt } from 'node:crypto';
import { systemClock, type Clock } from '../config/clock.js';
import { cleanElement as clean, x12Name } from './clean.js';

export interface Build270Input {
  payerId: string;
  payerName?: string;
  provider: { npi: string; organizationName?: string; firstName?: string; lastName?: string };
  /**
   * The patient. Without `memberId` NM108/NM109 are left out (a Medicare number lookup asks by SSN or
   * state instead: docs/finding-coverage.md#medicare-number); `ssn` becomes 2100C REF*SY and
   * `address` 2100C N4 (city and state).
   */
  subscriber: {
    firstName: string;
    lastName: string;
    memberId?: string;
    /** YYYYMMDD */
    dateOfBirth: string;
    ssn?: string;
    address?: { city: string; state: string };
  };
  /** YYYYMMDD */
  dateOfCoverage: string;
  serviceTypeCodes?: readonly string[];
  /** CPT/HCPCS codes (EQ02 HC:) and CDT codes, D + 4 digits (EQ02 AD:). */
  procedureCodes?: readonly string[];
}

/** EQ02's product/service id qualifier: AD (American Dental Association) for CDT codes, else HC. */
const procedureQualifier = (code: string): 'AD' | 'HC' => (/^D\d{4}$/.test(code) ? 'AD' : 'HC');

export interface Build270Options {
  /** The envelope's date and time (ISA09/10, GS04/05, BHT04/05); default the system clock. */
  clock?: Clock;
  /** Returns a positive integer; used modulo 10^9 for ISA13, GS06 and ST02. */
  controlNumber?: () => number;
  /** ISA06 and GS02. */
  senderId?: string;
  /** ISA08 and GS03. */
  receiverId?: string;
  senderQualifier?: string;
  receiverQualifier?: string;
  /** ISA15: P (production) or T (test). */
  usageIndicator?: 'P' | 'T';
}

export interface Built270 {
  x12: string;
  interchangeControlNumber: string;
}

const DEFAULT_SENDER_ID = 'ELIGIBILITYAPI';
/**
 * TRN03 of the 2000C trace: a 10-character id of whoever assigned the trace number ("9" then 9
 * characters is the form for an id that is not an EIN). The payer echoes the TRN in its 271.
 */
const TRACE_ORIGINATOR = '9ELIGIBAPI';
const DEFAULT_RECEIVER_ID = 'STEDI';
/** NM103 is required in 2100A; used when the caller does not know the payer's name. */
const UNKNOWN_PAYER_NAME = 'UNKNOWN';

const REPETITION = '^';
const COMPONENT = ':';
const TERMINATOR = '~';

function pad(value: string, width: number): string {
  return value.slice(0, width).padEnd(width, ' ');
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

const defaultControlNumber = () => randomInt(1, 1_000_000_000);

/**
 * Nine digits (100,000,000–999,999,999) from an upstream request key: the same key, the same number.
 * A batch item's 270 and COB request take their control numbers from their keys (docs/batch.md#engine).
 */
export function controlNumberOfKey(key: string): number {
  return 100_000_000 + (createHash('sha256').update(key).digest().readUInt32BE(0) % 900_000_000);
}

/** 2100C NM1: the member id as NM109 (qualifier MI) when there is one. */
function subscriberName(subscriber: Build270Input['subscriber']): string {
  const name = `NM1*IL*1*${x12Name(subscriber.lastName)}*${x12Name(subscriber.firstName)}`;
  return subscriber.memberId === undefined ? name : `${name}****MI*${clean(subscriber.memberId)}`;
}

export function build270(input: Build270Input, options: Build270Options = {}): Built270 {
  const now = new Date((options.clock ?? systemClock).now());
  const drawn = (options.controlNumber ?? defaultControlNumber)();
  const raw = Math.floor(Math.abs(drawn)) % 1_000_000_000;
  const control = raw === 0 ? 1 : raw;
  const isa13 = String(control).padStart(9, '0');
  const sender = clean(options.senderId ?? DEFAULT_SENDER_ID);
  const receiver = clean(options.receiverId ?? DEFAULT_RECEIVER_ID);
  const ccyymmdd = `${now.getUTCFullYear()}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const hhmm = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}`;

  const provider = input.provider;
  const providerName = provider.organizationName
    ? `NM1*1P*2*${clean(provider.organizationName)}*****XX*${clean(provider.npi)}`
    : `NM1*1P*1*${clean(provider.lastName ?? '')}*${clean(provider.firstName ?? '')}****XX*${clean(provider.npi)}`;
  const codes = (input.serviceTypeCodes?.length ? input.serviceTypeCodes : ['30']).map(clean).filter((c) => c !== '');

  const transaction = [
    `ST*270*${isa13}*005010X279A1`,
    `BHT*0022*13*${isa13}*${ccyymmdd}*${hhmm}`,
    'HL*1**20*1',
    `NM1*PR*2*${clean(input.payerName ?? '') || UNKNOWN_PAYER_NAME}*****PI*${clean(input.payerId)}`,
    'HL*2*1*21*1',
    providerName,
    'HL*3*2*22*0',
    `TRN*1*${isa13}*${TRACE_ORIGINATOR}`,
    subscriberName(input.subscriber),
    ...(input.subscriber.ssn ? [`REF*SY*${clean(input.subscriber.ssn.replace(/-/g, ''))}`] : []),
    ...(input.subscriber.address ? [`N4*${clean(input.subscriber.address.city)}*${clean(input.subscriber.address.state)}`] : []),
    `DMG*D8*${clean(input.subscriber.dateOfBirth)}`,
    `DTP*291*D8*${clean(input.dateOfCoverage)}`,
    ...(codes.length ? codes : ['30']).map((code) => `EQ*${code}`),
    ...(input.procedureCodes ?? [])
      .map(clean)
      .filter((code) => code !== '')
      .map((code) => `EQ**${procedureQualifier(code)}${COMPONENT}${code}`),
  ];
  transaction.push(`SE*${transaction.length + 1}*${isa13}`);

  const segments = [
    `ISA*00*${pad('', 10)}*00*${pad('', 10)}*${pad(options.senderQualifier ?? 'ZZ', 2)}*${pad(sender, 15)}*${pad(options.receiverQualifier ?? 'ZZ', 2)}*${pad(receiver, 15)}*${ccyymmdd.slice(2)}*${hhmm}*${REPETITION}*00501*${isa13}*0*${options.usageIndicator ?? 'P'}*${COMPONENT}`,
    `GS*HS*${sender}*${receiver}*${ccyymmdd}*${hhmm}*${control}*X*005010X279A1`,
    ...transaction,
    `GE*1*${control}`,
    `IEA*1*${isa13}`,
  ];
  return { x12: segments.join(TERMINATOR) + TERMINATOR, interchangeControlNumber: isa13 };
}
