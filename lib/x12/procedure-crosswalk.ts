/**
 * The procedure-code crosswalk (docs/eligibility.md#procedure-crosswalk): which X12 service type an
 * estimate line with a CPT, HCPCS or CDT code and no service type of its own is asked and answered under.
 * A documented approximation, written as data: ordered ranges, the first that holds the code wins, so the
 * narrow ranges (MRI and CT inside imaging) come before the wide ones. A code no range holds is `30`.
 * Where each range comes from is in the docs page; a change here is a change there.
 */

/** One range of codes (inclusive) and the X12 005010 service type code it maps to. */
export interface CrosswalkRange {
  from: string;
  to: string;
  serviceType: string;
  /** What the range is, as the docs name it. */
  what: string;
}

/** The ranges, in the order they are tried. */
export const PROCEDURE_CROSSWALK: readonly CrosswalkRange[] = [
  { from: '99202', to: '99215', serviceType: '98', what: 'office and outpatient evaluation and management' },
  { from: '99281', to: '99285', serviceType: '86', what: 'emergency department visits' },
  { from: 'S9083', to: 'S9083', serviceType: 'UC', what: 'urgent care center, global fee' },
  { from: 'S9088', to: 'S9088', serviceType: 'UC', what: 'services provided in an urgent care center' },
  { from: '99381', to: '99397', serviceType: 'BZ', what: 'preventive medicine visits' },
  { from: '90785', to: '90899', serviceType: 'MH', what: 'psychiatry and psychotherapy' },
  { from: '97010', to: '97799', serviceType: 'PT', what: 'physical medicine and rehabilitation' },
  { from: '98940', to: '98943', serviceType: '33', what: 'chiropractic manipulative treatment' },
  { from: '80047', to: '89398', serviceType: '5', what: 'pathology and laboratory' },
  // MRI and CT inside the radiology section, before it.
  { from: '70336', to: '70336', serviceType: '62', what: 'MRI, temporomandibular joint' },
  { from: '70450', to: '70498', serviceType: '62', what: 'CT and CT angiography, head and neck' },
  { from: '70540', to: '70559', serviceType: '62', what: 'MRI and MR angiography, face, neck and brain' },
  { from: '71250', to: '71275', serviceType: '62', what: 'CT and CT angiography, chest' },
  { from: '71550', to: '71555', serviceType: '62', what: 'MRI and MR angiography, chest' },
  { from: '72125', to: '72133', serviceType: '62', what: 'CT, spine' },
  { from: '72141', to: '72159', serviceType: '62', what: 'MRI and MR angiography, spine' },
  { from: '72191', to: '72198', serviceType: '62', what: 'CT, MRI and angiography, pelvis' },
  { from: '73200', to: '73206', serviceType: '62', what: 'CT and CT angiography, upper extremity' },
  { from: '73218', to: '73225', serviceType: '62', what: 'MRI and MR angiography, upper extremity' },
  { from: '73700', to: '73706', serviceType: '62', what: 'CT and CT angiography, lower extremity' },
  { from: '73718', to: '73725', serviceType: '62', what: 'MRI and MR angiography, lower extremity' },
  { from: '74150', to: '74185', serviceType: '62', what: 'CT, CT angiography and MRI, abdomen' },
  { from: '74261', to: '74263', serviceType: '62', what: 'CT colonography' },
  { from: '75557', to: '75574', serviceType: '62', what: 'cardiac MRI and CT' },
  { from: '76380', to: '76380', serviceType: '62', what: 'CT, limited or follow-up' },
  { from: '76497', to: '76498', serviceType: '62', what: 'unlisted CT and MRI procedures' },
  { from: '77046', to: '77049', serviceType: '62', what: 'MRI, breast' },
  { from: '77084', to: '77084', serviceType: '62', what: 'MRI, bone marrow' },
  { from: '70010', to: '79999', serviceType: '4', what: 'radiology (diagnostic imaging)' },
  { from: '10004', to: '69990', serviceType: '2', what: 'surgery' },
  { from: '00100', to: '01999', serviceType: '7', what: 'anesthesia' },
  { from: 'D0100', to: 'D9999', serviceType: '35', what: 'dental (CDT)' },
  { from: '92002', to: '92014', serviceType: 'AL', what: 'ophthalmological exams' },
];

/** Health benefit plan coverage: a code no range holds. */
export const CROSSWALK_DEFAULT = '30';

/** A code's shape: its digits as 9 (CPT 99213 → 99999, HCPCS S9083 → S9999, a CPT category III 0042T → 9999T). */
const shape = (code: string): string => code.replace(/[0-9]/g, '9');

/** Whether the range holds the code: the same shape as its ends (so 0042T is never anesthesia) and between them. */
const holds = (range: CrosswalkRange, code: string): boolean => shape(code) === shape(range.from) && code >= range.from && code <= range.to;

/** The service type of a procedure code (upper-case, five letters or digits): the first range that holds it, else 30. */
export function serviceTypeOfProcedure(code: string): string {
  for (const range of PROCEDURE_CROSSWALK) if (holds(range, code)) return range.serviceType;
  return CROSSWALK_DEFAULT;
}

/** Where an estimate line's service type comes from: the line itself (or the default 30), or the crosswalk. */
export type ServiceTypeSource = 'request' | 'crosswalk';

/**
 * An estimate line's service type (docs/eligibility.md#procedure-crosswalk): its own `serviceTypeCode`;
 * else, with a procedure code, the crosswalk's; else 30. The 270 asks about it like any service type.
 */
export function serviceTypeOfLine(line: { procedureCode?: string | undefined; serviceTypeCode?: string | undefined }): {
  code: string;
  source: ServiceTypeSource;
} {
  if (line.serviceTypeCode !== undefined) return { code: line.serviceTypeCode, source: 'request' };
  if (line.procedureCode !== undefined) return { code: serviceTypeOfProcedure(line.procedureCode), source: 'crosswalk' };
  return { code: CROSSWALK_DEFAULT, source: 'request' };
}
