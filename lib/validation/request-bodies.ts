/**
 * The request bodies as TypeScript types (docs/api.md#validation): what a body is once its schema in
 * ./schemas.ts has accepted it. Still written by hand beside the schemas: deriving them from the schemas,
 * as the answers' types are (./responses), is open work.
 */
export interface EligibilityRequest {
  patientFirstName: string;
  patientLastName: string;
  patientDOB: string;
  patientMemberId: string;
  dateOfCoverage: string;
  payerId: string;
  providerId: string;
  mockRequest?: boolean;
  runCobCheck?: boolean;
  /** X12 005010 service type codes, 1–10 distinct (default ["30"]). */
  serviceTypeCodes?: string[];
  /** CPT/HCPCS/CDT codes, 1–10 distinct, each five letters or digits. */
  procedureCodes?: string[];
  /** docs/eligibility.md#estimate */
  estimate?: EstimateRequest;
  /** docs/finding-coverage.md#discovery-when-the-check-finds-nothing */
  discoverOnInactive?: boolean;
}

export interface DiscoveryRequest {
  patientFirstName: string;
  patientLastName: string;
  patientDOB: string;
  patientGender?: 'M' | 'F';
  patientAddress?: { street: string; city: string; state: string; zip: string };
  patientSSN?: string;
  dateOfService: string;
  providerId: string;
}

export interface MbiRequest {
  patientFirstName: string;
  patientLastName: string;
  patientDOB: string;
  patientSSN?: string;
  patientState?: string;
  dateOfCoverage: string;
  providerId: string;
}

interface EstimateRequestLine {
  procedureCode?: string;
  serviceTypeCode?: string;
  /** Dollars, > 0, ≤ 1,000,000, at most two decimals. */
  amount: number;
}

export interface EstimateRequest {
  network?: 'in' | 'out';
  lines: EstimateRequestLine[];
}

export interface CobRequest {
  patientFirstName: string;
  patientLastName: string;
  dateOfCoverage: string;
  payerId: string;
  providerId: string;
  patientDOB?: string;
  patientMemberId?: string;
  patientSSN?: string;
  dependentFirstName?: string;
  dependentLastName?: string;
  dependentDOB?: string;
  serviceTypeCodes?: string[];
  mockRequest?: boolean;
}

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
}

/** POST /api/insurance-card/v1 (docs/finding-coverage.md#insurance-card). */
export interface CardRequest {
  /** Base64 JPEG, PNG or WebP. */
  front: string;
  back?: string;
  check?: CardCheckRequest;
}

/** The eligibility check a card request may ask for: the card gives the member id and the payer. */
export interface CardCheckRequest {
  patientDOB: string;
  dateOfCoverage: string;
  providerId: string;
  serviceTypeCodes?: string[];
  estimate?: EstimateRequest;
}

/** A `$submit` body as it arrives: a Bundle, a CoverageEligibilityRequest or a Parameters (every other key is read by lib/fhir). */
export interface FhirBundleRequest {
  resourceType: 'Bundle' | 'CoverageEligibilityRequest' | 'Parameters';
  [key: string]: unknown;
}
