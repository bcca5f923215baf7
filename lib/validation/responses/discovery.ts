/**
 * The answers of insurance discovery and the Medicare number lookup (docs/finding-coverage.md),
 * declared once: lib/discovery's types match them, and the OpenAPI document and the tests read them.
 */
import { DISCOVERY_STATUSES } from './discovery-part.js';
import { realEligibilityResponseSchema } from './eligibility.js';
import { errorResponseSchema } from './errors.js';
import { coverageStatusSchema, str } from './shared.js';

export const discoveredCoverageSchema = {
  title: 'DiscoveredCoverage',
  type: 'object',
  additionalProperties: false,
  required: ['payerId', 'payerName', 'memberId', 'coverageStatus', 'eligibility'],
  properties: {
    payerId: str('The payer id to send eligibility checks to (empty when the clearinghouse named none and the directory knew the name of none).'),
    payerName: str("The payer's name as the clearinghouse gave it."),
    memberId: str("The patient's member id with this payer."),
    groupNumber: str('The group number, when the payer gave one.'),
    coverageStatus: coverageStatusSchema,
    eligibility: {
      oneOf: [realEligibilityResponseSchema, errorResponseSchema],
      description:
        "The eligibility answer for this coverage, read from the payer's 271 (the one the discovery carried, else one check the service ran), or the error body of that check.",
    },
  },
} as const;

export const discoveryResponseSchema = {
  title: 'DiscoveryResponse',
  type: 'object',
  additionalProperties: false,
  required: ['discoveryId', 'status'],
  properties: {
    discoveryId: { type: 'string', format: 'uuid', description: 'Poll it at GET /api/insurance-discovery/v1/{discoveryId} for 24 hours.' },
    status: { type: 'string', enum: DISCOVERY_STATUSES, description: 'COMPLETE: coverages holds every coverage found (maybe none). PENDING: poll again.' },
    coverages: { type: 'array', maxItems: 10, items: discoveredCoverageSchema, description: 'Only when COMPLETE: one item per coverage found.' },
  },
} as const;

export const mbiResponseSchema = {
  title: 'MbiResponse',
  type: 'object',
  additionalProperties: false,
  required: ['mbi', 'eligibility'],
  properties: {
    mbi: str("The patient's Medicare Beneficiary Identifier: send it as patientMemberId with payerId CMS from now on."),
    eligibility: realEligibilityResponseSchema,
  },
} as const;
