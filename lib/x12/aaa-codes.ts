/**
 * X12 code lists for the AAA segment of a 271 (005010X279A1): AAA03 reject reason codes (element 901)
 * and AAA04 follow-up action codes (element 889).
 */

const REJECT_REASONS: Readonly<Record<string, string>> = {
  '04': 'Authorized Quantity Exceeded',
  '15': 'Required Application Data Missing',
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

export const FOLLOW_UP_ACTIONS: Readonly<Record<string, string>> = {
  C: 'Please Correct and Resubmit',
  N: 'Resubmission Not Allowed',
  P: 'Please Resubmit Original Transaction',
  R: 'Resubmission Allowed',
  S: 'Do Not Resubmit; Inquiry Initiated to a Third Party',
  W: 'Please Wait 30 Days and Resubmit',
  X: 'Please Wait 10 Days and Resubmit',
  Y: 'Do Not Resubmit; We Will Hold Your Request and Respond Again Shortly',
};

/**
 * AAA03 codes meaning the payer could not answer now ("try again later", not "your data is wrong"):
 * the one retry (docs/api.md#upstreams), and 503 rather than 422 (docs/api.md#errors).
 */
export const UNAVAILABLE_AAA: ReadonlySet<string> = new Set(['42', '80']);

const UNKNOWN_REJECT_REASON = 'Unknown reject reason code';
const UNKNOWN_FOLLOW_UP = 'Unknown follow-up action';

/** The X12 description of an AAA03 code; undefined when the list has none (own keys only: "constructor" is not a code). */
export function knownRejectReason(code: string): string | undefined {
  return Object.hasOwn(REJECT_REASONS, code) ? REJECT_REASONS[code] : undefined;
}

/** The X12 name of an AAA04 code; undefined when the list has none (own keys only). */
export function knownFollowUp(code: string): string | undefined {
  return Object.hasOwn(FOLLOW_UP_ACTIONS, code) ? FOLLOW_UP_ACTIONS[code] : undefined;
}

export function rejectReason(code: string): string {
  return knownRejectReason(code) ?? UNKNOWN_REJECT_REASON;
}

/** "C: Please Correct and Resubmit"; an absent AAA04 gives "". */
export function followUpAction(code: string): string {
  if (code === '') return '';
  return Object.hasOwn(FOLLOW_UP_TEXT, code) ? FOLLOW_UP_TEXT[code]! : `${code}: ${UNKNOWN_FOLLOW_UP}`;
}

/** The follow-up texts as they are answered, built once. */
const FOLLOW_UP_TEXT: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FOLLOW_UP_ACTIONS).map(([code, text]) => [code, `${code}: ${text}`]),
);
