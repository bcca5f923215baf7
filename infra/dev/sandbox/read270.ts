/**
 * Reads the few 270 fields the sandbox clearinghouse needs to pick a test patient and to echo the
 * request's identifiers. Deliberately independent of lib/x12 so the sandbox checks the service's
 * 270 from the outside, the way a clearinghouse would.
 */

export interface Inquiry270 {
  senderId: string;
  receiverId: string;
  interchangeControlNumber: string;
  groupControlNumber: string;
  transactionControlNumber: string;
  /** BHT03, echoed in the 271's BHT03. */
  submitterReference: string;
  payerName: string;
  payerId: string;
  /** The 2100B NM1 elements after NM1, echoed into the 271's 2100B. */
  provider: string[];
  /** TRN02/TRN03 of the 2000C trace, echoed as TRN*2. */
  trace?: { number: string; originator: string };
  lastName: string;
  firstName: string;
  memberId: string;
  /** DMG02, CCYYMMDD. */
  dateOfBirth: string;
  /** DTP*291 value, CCYYMMDD. */
  dateOfService?: string;
  serviceTypes: string[];
  /** EQ02 procedure codes (HC:99213 → 99213). */
  procedures: string[];
  /** 2100C REF*SY (a Medicare number lookup by SSN). */
  ssn?: string;
  /** 2100C N4 state (a Medicare number lookup without SSN). */
  state?: string;
}

export type Read270 = { ok: true; inquiry: Inquiry270 } | { ok: false; reason: string };

/** ISA is fixed width: element separator at 3, ISA16 (component separator) at 104, terminator right after. */
function delimiters(text: string): { element: string; component: string; segment: string } | undefined {
  if (!text.startsWith('ISA') || text.length < 106) return undefined;
  return { element: text[3]!, component: text[104]!, segment: text[105]! };
}

export function read270(raw: string): Read270 {
  const text = raw.replace(/^\uFEFF/, '').trimStart();
  const d = delimiters(text);
  if (!d) return { ok: false, reason: 'no ISA header' };
  const component = d.component;
  const segments = text
    .split(d.segment)
    .map((s) => s.replace(/^[\r\n]+/, '').trim())
    .filter((s) => s !== '')
    .map((s) => s.split(d.element));
  const find = (id: string, test: (e: string[]) => boolean = () => true) => segments.find((e) => e[0] === id && test(e));
  const at = (e: string[] | undefined, i: number): string => (e?.[i] ?? '').trim();

  const isa = find('ISA');
  const gs = find('GS');
  const st = find('ST');
  if (at(st, 1) !== '270') return { ok: false, reason: 'not a 270 transaction' };
  const bht = find('BHT');
  const payer = find('NM1', (e) => e[1] === 'PR');
  const provider = find('NM1', (e) => e[1] === '1P');
  const subscriberIndex = segments.findIndex((e) => e[0] === 'NM1' && e[1] === 'IL');
  if (subscriberIndex < 0) return { ok: false, reason: 'no 2100C NM1*IL' };
  const subscriber = segments[subscriberIndex]!;
  const after = segments.slice(subscriberIndex);
  const dmg = after.find((e) => e[0] === 'DMG');
  const dtp = after.find((e) => e[0] === 'DTP' && e[1] === '291');
  const trn = segments.find((e) => e[0] === 'TRN' && e[1] === '1');
  if (!payer || at(payer, 9) === '') return { ok: false, reason: 'no payer id in 2100A' };

  const inquiry: Inquiry270 = {
    senderId: at(isa, 6),
    receiverId: at(isa, 8),
    interchangeControlNumber: at(isa, 13),
    groupControlNumber: at(gs, 6),
    transactionControlNumber: at(st, 2),
    submitterReference: at(bht, 3),
    payerName: at(payer, 3),
    payerId: at(payer, 9),
    provider: provider ? provider.slice(1) : [],
    lastName: at(subscriber, 3),
    firstName: at(subscriber, 4),
    memberId: at(subscriber, 8) === 'MI' ? at(subscriber, 9) : '',
    dateOfBirth: at(dmg, 1) === 'D8' ? at(dmg, 2) : '',
    serviceTypes: segments.filter((e) => e[0] === 'EQ' && at(e, 1) !== '').map((e) => at(e, 1)),
    procedures: segments.filter((e) => e[0] === 'EQ' && at(e, 2) !== '').map((e) => at(e, 2).split(component)[1] ?? ''),
  };
  if (trn) inquiry.trace = { number: at(trn, 2), originator: at(trn, 3) };
  const ssn = at(
    after.find((e) => e[0] === 'REF' && e[1] === 'SY'),
    2,
  );
  if (ssn) inquiry.ssn = ssn;
  const state = at(
    after.find((e) => e[0] === 'N4'),
    2,
  );
  if (state) inquiry.state = state;
  const dos = at(dtp, 3);
  if (dos) inquiry.dateOfService = dos.slice(0, 8);
  return { ok: true, inquiry };
}
