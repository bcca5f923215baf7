/** The letter request's type (docs/letter.md), beside its JSON Schema in ./schemas.ts (the schema's own file has no room). */

export interface LetterRequest {
  file_content: string;
  patient_identifier: string;
  patient_name: string;
  patient_age: string;
  facility_name: string;
  visit_cost: string;
  provider_email: string;
  provider_phone: string;
  provider_signature: string;
  provider_name: string;
  output_format?: 'text' | 'pdf';
  payer_name?: string;
  member_id?: string;
  patient_dob?: string;
  provider_npi?: string;
  /** docs/letter.md#letter-types (default medical_necessity). */
  letter_type?: 'medical_necessity' | 'prior_authorization' | 'appeal';
  /** The payer's coverage policy, LCD or NCD: base64 PDF, read like file_content. */
  policy_file_content?: string;
  policy_name?: string;
  /** The denial letter or EOB (required for appeals): base64 PDF, read like file_content. */
  denial_file_content?: string;
  /** Prior authorizations: 1–20 services (CPT/HCPCS), dates MM-DD-YYYY. */
  requested_services?: RequestedService[];
}

export interface RequestedService {
  code: string;
  units?: number;
  dateFrom?: string;
  dateTo?: string;
}
