/**
 * The letter request's metadata (spec 2.5), every field a string as the caller sent it.
 * `file_content` and `output_format` are not part of it: the PDF travels separately and the
 * output format is the handler's choice.
 */
export interface LetterMetadata {
  patient_identifier: string;
  patient_name: string;
  patient_age: string;
  facility_name: string;
  visit_cost: string;
  provider_email: string;
  provider_phone: string;
  provider_signature: string;
  provider_name: string;
}
