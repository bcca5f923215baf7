/**
 * Writes the sandbox payer's answers: 005010X279A1 271s (benefits or AAA rejections) and the 999
 * a clearinghouse returns for a 270 it rejects. Delimiters: * elements, ^ repetitions, : components, ~ segments.
 */
import type { Inquiry270 } from './read270.js';
import { usDateToD8 } from '../../../lib/validation/index.js';
import type { EbRow, SandboxPatient } from './patients.js';

type Seg = string[];

/** Joins elements, dropping trailing empty ones as X12 requires. */
function segment(elements: Seg): string {
  const trimmed = [...elements];
  while (trimmed.length > 1 && (trimmed[trimmed.length - 1] ?? '') === '') trimmed.pop();
  return trimmed.join('*');
}

/** One 2110 loop: the EB, its HSDs, DTPs, REF*IG, MSGs, then the 2120 loop of another payer. */
function eb(row: EbRow): Seg[] {
  const e: Seg = ['EB', row.info, row.level ?? '', (row.services ?? []).join('^'), row.insuranceType ?? '', row.planDescription ?? ''];
  e.push(
    row.timePeriod ?? '',
    row.amount ?? '',
    row.percent ?? '',
    row.quantityQualifier ?? '',
    row.quantity ?? '',
    row.authorization ?? '',
    row.network ?? '',
  );
  e.push((row.procedure ?? []).join(':'));
  const loop: Seg[] = [e];
  for (const hsd of row.deliveries ?? []) loop.push(['HSD', hsd.quantityQualifier, hsd.quantity, '', '', hsd.timePeriod, hsd.periodCount ?? '']);
  for (const date of row.dates ?? []) loop.push(['DTP', date.qualifier, date.format, date.value]);
  if (row.otherPayer?.memberId) loop.push(['REF', 'IG', row.otherPayer.memberId]);
  for (const message of row.messages ?? []) loop.push(['MSG', message]);
  if (row.otherPayer) {
    const other = row.otherPayer;
    loop.push(['LS', '2120'], ['NM1', other.entity, '2', other.name, '', '', '', '', 'PI', other.payerId], ['LE', '2120']);
  }
  if (row.benefitProvider) {
    const provider = row.benefitProvider;
    loop.push(['LS', '2120'], ['NM1', provider.entity, '1', provider.lastName, provider.firstName, '', '', '', 'XX', provider.npi], ['LE', '2120']);
  }
  return loop;
}

const pad = (value: string, width: number): string => value.slice(0, width).padEnd(width, ' ');

export interface EnvelopeClock {
  date: string; // CCYYMMDD
  time: string; // HHMM
}

export function clockOf(now: Date): EnvelopeClock {
  const iso = now.toISOString();
  return { date: iso.slice(0, 10).replaceAll('-', ''), time: iso.slice(11, 16).replace(':', '') };
}

/** Wraps one transaction's segments (ST…SE excluded) in ISA/GS/ST…SE/GE/IEA, answering the inquiry's sender. */
function envelope(inquiry: Inquiry270, kind: { gs01: string; st01: string; version: string }, body: Seg[], clock: EnvelopeClock, before: Seg[][] = []): string {
  const control = (inquiry.interchangeControlNumber || '1').padStart(9, '0').slice(-9);
  const group = inquiry.groupControlNumber || '1';
  // `before`: transactions sent ahead of the answer (another member's 271), each in its own ST/SE.
  const transactions = [...before, body].flatMap((part, i) => {
    const id = String(i + 1).padStart(4, '0');
    return [['ST', kind.st01, id, kind.version], ...part, ['SE', String(part.length + 2), id]];
  });
  const segments: Seg[] = [
    [
      'ISA',
      '00',
      pad('', 10),
      '00',
      pad('', 10),
      'ZZ',
      pad(inquiry.receiverId || 'SANDBOXCH', 15),
      'ZZ',
      pad(inquiry.senderId || 'SUBMITTER', 15),
      clock.date.slice(2),
      clock.time,
      '^',
      '00501',
      control,
      '0',
      'T',
      ':',
    ],
    ['GS', kind.gs01, inquiry.receiverId || 'SANDBOXCH', inquiry.senderId || 'SUBMITTER', clock.date, clock.time, group, 'X', kind.version],
    ...transactions,
    ['GE', String(before.length + 1), group],
    ['IEA', '1', control],
  ];
  // ISA keeps its fixed width (trailing blanks are significant there), so it is joined as is.
  return `${segments.map((s) => (s[0] === 'ISA' ? s.join('*') : segment(s))).join('~')}~`;
}

function providerLoop(inquiry: Inquiry270): Seg[] {
  return inquiry.provider.length > 0 ? [['NM1', ...inquiry.provider]] : [['NM1', '1P', '2', 'SANDBOX PROVIDER', '', '', '', '', 'XX', '1234567893']];
}

/** The 2100 REF (group) and DTP (plan and eligibility dates) segments. */
const dateSegments = (p: SandboxPatient | undefined): Seg[] => [
  ...(p?.group ? [['REF', '6P', p.group.number, p.group.name]] : []),
  ...(p?.planBegin ? [['DTP', '346', 'D8', p.planBegin]] : []),
  ...(p?.planEnd ? [['DTP', '347', 'D8', p.planEnd]] : []),
  ...(p?.eligibilityBegin ? [['DTP', '356', 'D8', p.eligibilityBegin]] : []),
];

/**
 * The 271 for an inquiry. `patient` undefined means nobody matched: AAA 75 at 2100C, echoing the
 * names the inquiry gave. `truncate` cuts the answer after the information receiver (2000B).
 */
export function write271(inquiry: Inquiry270, patient: SandboxPatient | undefined, clock: EnvelopeClock, options: { truncate?: boolean } = {}): string {
  const payerName = patient?.payerName ?? (inquiry.payerName || 'SANDBOX PAYER');
  const body: Seg[] = [
    ['BHT', '0022', '11', inquiry.submitterReference, clock.date, clock.time],
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', payerName, '', '', '', '', 'PI', inquiry.payerId],
  ];
  if (patient?.aaa?.loop === '2100A') {
    // The payer could not answer at all: the 271 stops at the source loop.
    body[1] = ['HL', '1', '', '20', '0'];
    body.push(['AAA', 'N', '', patient.aaa.code, patient.aaa.followUp]);
    return envelope(inquiry, { gs01: 'HB', st01: '271', version: '005010X279A1' }, body, clock);
  }
  body.push(['PER', 'IC', 'SANDBOX PROVIDER SERVICES', 'TE', '8005550100']);
  body.push(['HL', '2', '1', '21', '1'], ...providerLoop(inquiry));
  if (options.truncate) return envelope(inquiry, { gs01: 'HB', st01: '271', version: '005010X279A1' }, body, clock).replace(/~SE\*.*$/, '~');

  const trace: Seg[] = inquiry.trace ? [['TRN', '2', inquiry.trace.number, inquiry.trace.originator]] : [];
  const dependent = patient?.subscriber;
  body.push(['HL', '3', '2', '22', dependent ? '1' : '0'], ...(dependent ? [] : trace));

  if (!patient || patient.aaa) {
    // Echo what was asked, then say why it cannot be answered.
    const code = patient?.aaa?.code ?? '75';
    const followUp = patient?.aaa?.followUp ?? 'C';
    body.push(['NM1', 'IL', '1', inquiry.lastName, inquiry.firstName, '', '', '', 'MI', inquiry.memberId]);
    body.push(['AAA', 'N', '', code, followUp]);
    if (inquiry.dateOfBirth) body.push(['DMG', 'D8', inquiry.dateOfBirth]);
    return envelope(inquiry, { gs01: 'HB', st01: '271', version: '005010X279A1' }, body, clock);
  }

  if (dependent) {
    body.push(['NM1', 'IL', '1', dependent.lastName.toUpperCase(), dependent.firstName.toUpperCase(), '', '', '', 'MI', patient.memberId]);
    body.push(['N3', '100 MAIN ST'], ['N4', 'SPRINGFIELD', 'IL', '62701']);
    body.push(['DMG', 'D8', usDateToD8(dependent.dob)], ...dateSegments(patient));
    for (const row of patient.subscriberBenefits ?? []) body.push(...eb(row));
    body.push(['HL', '4', '3', '23', '0'], ...trace);
    body.push(['NM1', '03', '1', patient.lastName.toUpperCase(), patient.firstName.toUpperCase()]);
    body.push(['N3', '100 MAIN ST'], ['N4', 'SPRINGFIELD', 'IL', '62701']);
    body.push(['DMG', 'D8', usDateToD8(patient.dob)], ['INS', 'N', '19'], ...dateSegments(patient));
  } else {
    body.push(['NM1', 'IL', '1', patient.lastName.toUpperCase(), patient.firstName.toUpperCase(), '', '', '', 'MI', patient.memberId]);
    body.push(['N3', '100 MAIN ST'], ['N4', 'SPRINGFIELD', 'IL', '62701']);
    body.push(['DMG', 'D8', usDateToD8(patient.dob)], ...dateSegments(patient));
    if (patient.dateOfDeath) body.push(['DTP', '442', 'D8', patient.dateOfDeath]);
  }
  for (const row of patient.benefits ?? []) body.push(...eb(row));
  return envelope(
    inquiry,
    { gs01: 'HB', st01: '271', version: '005010X279A1' },
    body,
    clock,
    patient.otherMemberFirst ? [otherMember(inquiry, patient.otherMemberFirst, clock)] : [],
  );
}

/** A 271 about another member of the same plan, which the payer sent first: not found (AAA 75). */
function otherMember(inquiry: Inquiry270, other: NonNullable<SandboxPatient['otherMemberFirst']>, clock: EnvelopeClock): Seg[] {
  return [
    ['BHT', '0022', '11', inquiry.submitterReference, clock.date, clock.time],
    ['HL', '1', '', '20', '1'],
    ['NM1', 'PR', '2', 'SANDBOX HEALTH PPO', '', '', '', '', 'PI', inquiry.payerId],
    ['HL', '2', '1', '21', '1'],
    ...providerLoop(inquiry),
    ['HL', '3', '2', '22', '0'],
    ['NM1', 'IL', '1', other.lastName, other.firstName, '', '', '', 'MI', other.memberId],
    ['AAA', 'N', '', '75', 'C'],
  ];
}

/** A 999 rejecting the 270 (Stedi answers these with HTTP 400). */
export function write999(inquiry: Inquiry270 | undefined, clock: EnvelopeClock): string {
  const asked: Inquiry270 = inquiry ?? {
    senderId: 'SUBMITTER',
    receiverId: 'SANDBOXCH',
    interchangeControlNumber: '1',
    groupControlNumber: '1',
    transactionControlNumber: '0001',
    submitterReference: '',
    payerName: '',
    payerId: '',
    provider: [],
    lastName: '',
    firstName: '',
    memberId: '',
    dateOfBirth: '',
    serviceTypes: [],
    procedures: [],
  };
  const body: Seg[] = [
    ['AK1', 'HS', asked.groupControlNumber || '1', '005010X279A1'],
    ['AK2', '270', asked.transactionControlNumber || '0001', '005010X279A1'],
    ['IK3', 'NM1', '8', '2100', '8'],
    ['IK4', '9', '67', '7'],
    ['IK5', 'R', '5'],
    ['AK9', 'R', '1', '1', '0'],
  ];
  return envelope(asked, { gs01: 'FA', st01: '999', version: '005010X231A1' }, body, clock);
}
