/** A provider enrollment (docs/api.md#enrollment): who may run real checks for which provider and payers. */
export interface Enrollment {
  providerId: string;
  clientId: string;
  npi: string;
  /** For an organization provider (NM1*1P*2). */
  organizationName?: string;
  /** For a person provider (NM1*1P*1). */
  firstName?: string;
  lastName?: string;
  status: 'active' | 'inactive';
  /** When set, the only payers this enrollment may query. */
  payerIds?: string[];
}

export interface EnrollmentStore {
  get(providerId: string): Promise<Enrollment | undefined>;
  put(enrollment: Enrollment): Promise<void>;
  /**
   * The client's enrollments with this NPI, any status (docs/fhir.md#identifiers: a FHIR provider named
   * by NPI). Optional: a store without it (a cache in front of `get`) matches no NPI.
   */
  findByNpi?(clientId: string, npi: string): Promise<Enrollment[]>;
}
