/**
 * Payer AAA errors in a Stedi COB answer → AaaRejection values and the CONTRACT §3 error.
 * Stedi bubbles every AAA up to the top-level `errors`; the nested `aaaErrors` are read only
 * when `errors` is empty, so nothing is listed twice.
 */
import { serviceError, type AaaRejection, type ServiceError } from '../errors/index.js';

/** AAA03 reject reason codes of 005010X279A1. */
const REJECT_REASONS: Readonly<Record<string, string>> = {
  '04': 'Authorized Quantity Exceeded',
  '15': 'Required application data missing',
  '33': 'Input Errors',
  '35': 'Out of Network',
  '41': 'Authorization/Access Restrictions',
  '42': 'Unable to Respond at Current Time',
  '43': 'Invalid/Missing Provider Identification',
  '44': 'Invalid/Missing Provider Name',
  '45': 'Invalid/Missing Provider Specialty',
  '46': 'Invalid/Missing Provider Phone Number',
  '47': 'Invalid/Missing Provider State',
  '48': 'Invalid/Missing Referring Provider Identification Number',
  '49': 'Provider is Not Primary Care Physician',
  '50': 'Provider Ineligible for Inquiries',
  '51': 'Provider Not on File',
  '52': 'Service Dates Not Within Provider Plan Enrollment',
  '53': 'Inquired Benefit Inconsistent with Provider Type',
  '54': 'Inappropriate Product/Service ID Qualifier',
  '55': 'Inappropriate Product/Service ID',
  '56': 'Inappropriate Date',
  '57': 'Invalid/Missing Date(s) of Service',
  '58': 'Invalid/Missing Date-of-Birth',
  '60': 'Date of Birth Follows Date(s) of Service',
  '61': 'Date of Death Precedes Date(s) of Service',
  '62': 'Date of Service Not Within Allowable Inquiry Period',
  '63': 'Date of Service in Future',
  '64': 'Invalid/Missing Patient ID',
  '65': 'Invalid/Missing Patient Name',
  '66': 'Invalid/Missing Patient Gender Code',
  '67': 'Patient Not Found',
  '68': 'Duplicate Patient ID Number',
  '69': "Inconsistent with Patient's Age",
  '70': "Inconsistent with Patient's Gender",
  '71': 'Patient Birth Date Does Not Match That for the Patient on the Database',
  '72': 'Invalid/Missing Subscriber/Insured ID',
  '73': 'Invalid/Missing Subscriber/Insured Name',
  '74': 'Invalid/Missing Subscriber/Insured Gender Code',
  '75': 'Subscriber/Insured Not Found',
  '76': 'Duplicate Subscriber/Insured ID Number',
  '77': 'Subscriber Found, Patient Not Found',
  '78': 'Subscriber/Insured Not in Group/Plan Identified',
  '79': 'Invalid Participant Identification',
  '80': 'No Response received - Transaction Terminated',
  '97': 'Invalid or Missing Provider Address',
  '98': 'Experimental Service or Procedure',
  AA: 'Authorization Number Not Found',
  AE: 'Requires Primary Care Physician Authorization',
  AF: 'Invalid/Missing Diagnosis Code(s)',
  AG: 'Invalid/Missing Procedure Code(s)',
  AO: 'Additional Patient Condition Information Required',
  CI: 'Certification Information Does Not Match Patient',
  E8: 'Requires Medical Review',
  IA: 'Invalid Authorization Number Format',
  MA: 'Missing Authorization',
  T4: 'Payer Name or Identifier Missing',
};

/** AAA04 follow-up action codes; Stedi's JSON gives only the text, so the code is found from it. */
const FOLLOW_UP_ACTIONS: ReadonlyArray<readonly [string, string]> = [
  ['C', 'Please Correct and Resubmit'],
  ['N', 'Resubmission Not Allowed'],
  ['P', 'Please Resubmit Original Transaction'],
  ['R', 'Resubmission Allowed'],
  ['S', 'Do Not Resubmit; Inquiry Initiated to a Third Party'],
  ['W', 'Please Wait 30 Days and Resubmit'],
  ['X', 'Please Wait 10 Days and Resubmit'],
  ['Y', 'Do Not Resubmit; We Will Hold Your Request and Respond Again Shortly'],
];

/** Where Stedi nests AAA errors, and the 271 loop each stands for. */
const NESTED_SOURCES: ReadonlyArray<readonly [string, string]> = [
  ['provider', '2100B'],
  ['subscriber', '2100C'],
  ['dependent', '2100D'],
];

/** AAA03 codes that mean "try later" (503) or "the clearinghouse failed us" (502) rather than a data error. */
const UNAVAILABLE = new Set(['42', '80']);
const UPSTREAM = new Set(['79']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

function followUpAction(value: unknown): string {
  const given = text(value);
  if (!given) return '';
  const byCode = FOLLOW_UP_ACTIONS.find(([code]) => code === given.toUpperCase());
  if (byCode) return `${byCode[0]}: ${byCode[1]}`;
  const byText = FOLLOW_UP_ACTIONS.find(([, name]) => name.toLowerCase() === given.toLowerCase());
  return byText ? `${byText[0]}: ${byText[1]}` : given;
}

function loopOf(location: unknown, fallback: string): string {
  const match = /\b(2000A|2100[A-D]|2110[CD])\b/.exec(text(location) ?? '');
  return match ? match[1]! : fallback;
}

function rejection(error: unknown, fallbackLoop: string): AaaRejection | undefined {
  if (!isObject(error)) return undefined;
  const code = text(error.code);
  if (!code) return undefined;
  return {
    code,
    description: REJECT_REASONS[code] ?? text(error.description) ?? 'Unknown reject reason',
    followUpAction: followUpAction(error.followupAction ?? error.followUpAction),
    loop: loopOf(error.location, fallbackLoop),
  };
}

function collect(list: unknown, fallbackLoop: string): AaaRejection[] {
  if (!Array.isArray(list)) return [];
  return list.map((error) => rejection(error, fallbackLoop)).filter((r): r is AaaRejection => r !== undefined);
}

/** The payer AAA errors of a Stedi COB answer (HTTP 200 or 400), in answer order. */
export function cobErrors(answer: unknown): AaaRejection[] {
  if (!isObject(answer)) return [];
  const top = collect(answer.errors, 'unknown');
  if (top.length > 0) return top;
  return NESTED_SOURCES.flatMap(([key, loop]) => {
    const holder = answer[key];
    return isObject(holder) ? collect(holder.aaaErrors, loop) : [];
  });
}

/** CONTRACT §3: 422 unless every code is 42/79/80; then 503 if any is 42 or 80; else 502. */
export function rejectionError(rejections: AaaRejection[]): ServiceError {
  if (rejections.some((r) => !UNAVAILABLE.has(r.code) && !UPSTREAM.has(r.code))) {
    return serviceError('PAYER_REJECTED', { rejections });
  }
  if (rejections.some((r) => UNAVAILABLE.has(r.code))) return serviceError('PAYER_UNAVAILABLE', { rejections });
  return serviceError('UPSTREAM_ERROR', { rejections });
}
