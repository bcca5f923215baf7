/**
 * The closed lists and fixed texts of the answers: the response schemas' enums and consts are made of
 * them, so production code that needs a list at run time imports it from here, never a schema (the
 * schemas stay out of the function bundles). A new notice code, COB code or state starts here.
 */

/** The eligibility answer's notices (docs/eligibility.md#notices). */
export const ELIGIBILITY_NOTICE_CODES = [
  'OTHER_PAYER',
  'MEDICARE_ADVANTAGE',
  'FAMILY_LEVEL_ONLY',
  'SERVICE_NOT_RETURNED',
  'PLAN_SCOPE',
  'FREQUENCY_NOT_MET',
  'PATIENT_DECEASED',
  'CONTACT_PAYER',
  'PCP_ON_FILE',
  'RESTRICTED_PROVIDER',
] as const;

/** The letter answer's notices (docs/letter.md#response). */
export const LETTER_NOTICE_CODES = [
  'UNVERIFIED_CODE_REMOVED',
  'NOTES_NOT_MACHINE_READABLE',
  'GLYPHS_REPLACED',
  'CITATION_NOT_FOUND',
  'CITATIONS_LIMITED',
  'CRITERIA_NOT_MET',
] as const;

/** The insurance card answer's notices (docs/finding-coverage.md#insurance-card). */
export const CARD_NOTICE_CODES = ['CONFIRM_CARD_FIELDS'] as const;

/** Every list, eligibility first: the enum of a notice's `code`. */
export const NOTICE_CODES = [...ELIGIBILITY_NOTICE_CODES, ...LETTER_NOTICE_CODES, ...CARD_NOTICE_CODES] as const;

/** The fields an insurance card answer may hold, in the answer's order (docs/finding-coverage.md#insurance-card). */
export const CARD_TEXT_FIELDS = [
  'payerName',
  'memberId',
  'groupNumber',
  'planName',
  'planType',
  'subscriberName',
  'rxBin',
  'rxPcn',
  'rxGroup',
  'payerPhone',
  'claimsAddress',
] as const;
export const CARD_FIELDS = [...CARD_TEXT_FIELDS, 'dependents', 'copays'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** The most characters a card's text field keeps (an address: CARD_ADDRESS_MAX); lists at most CARD_LIST_MAX items. */
export const CARD_TEXT_MAX = 100;
export const CARD_ADDRESS_MAX = 200;
export const CARD_LIST_MAX = 12;

/** How sure the reader is of one field. */
export const CONFIDENCE_LEVELS = ['high', 'medium', 'low'] as const;

export type EligibilityNoticeCode = (typeof ELIGIBILITY_NOTICE_CODES)[number];
export type LetterNoticeCode = (typeof LETTER_NOTICE_CODES)[number];

/** The five COB codes, in the order docs/api.md lists them. */
export const COB_CODES = [
  'MemberFoundNoCOB',
  'CoverageOverlapNoBenefitOverlap',
  'CoverageOverlapExistsNotSubjectToCob',
  'CobInstanceExistsPrimacyUndetermined',
  'CobInstanceExistsPrimacyDetermined',
] as const;

/** The fields whose figures a `benefits` entry may take from the plan level, in this order. */
export const PLAN_FIELDS = ['copay', 'coinsurance', 'deductible', 'stopLoss'] as const;

/** What a per-occurrence deductible is charged per (EB06 26, 27, 36: docs/eligibility.md#per-visit-deductibles). */
export const OCCURRENCES = ['Episode', 'Visit', 'Admission'] as const;
export type Occurrence = (typeof OCCURRENCES)[number];

/** What an estimate line may name in `missing` (docs/eligibility.md#estimate-revision-2), in the order a line lists them. */
export const MISSING_FIGURES = ['deductibleRemaining', 'coinsurance', 'coinsuranceAfterCopay', 'stopLossRemaining', 'primaryPayer'] as const;

/** Where an estimate line's service type came from (docs/eligibility.md#procedure-crosswalk). */
export const SERVICE_TYPE_SOURCES = ['request', 'crosswalk'] as const;

/** The out-of-network estimate's sentence (docs/eligibility.md#estimate-revision-2). */
export const BALANCE_BILLING_NOTE = 'Out of network, the provider may bill the difference between the charge and the allowed amount.';

/** The `message` of a real check's answer and of a mock scenario's. */
export const SUCCESS_MESSAGE = 'Eligibility check successful';
export const MOCK_SUCCESS_MESSAGE = 'Mock Eligibility check successful.';

/** The two transactions this service sends, as the directory's `transaction` filter names them. */
export const TRANSACTIONS = ['eligibility', 'cob'] as const;

/** The coverage types a payer may list. */
export const COVERAGE_TYPES = ['medical', 'dental', 'vision'] as const;

/** Payers on one page at most (the search's `pageSize` maximum). */
export const MAX_PAYER_PAGE_SIZE = 100;

export const BATCH_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'COMPLETED_WITH_ERRORS', 'CANCELLED'] as const;
export const ITEM_STATES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
