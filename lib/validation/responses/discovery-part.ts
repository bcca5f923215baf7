/**
 * What `discoverOnInactive` adds to an eligibility answer or its 422 (docs/finding-coverage.md#discovery-when-the-check-finds-nothing):
 * the discovery it started, or `{message, code}` when none could start. Its coverages are those of
 * POST /api/insurance-discovery/v1 (DiscoveredCoverage, ./discovery.ts); declared loosely here
 * because a coverage holds an eligibility answer, which holds this.
 */
import { str } from './shared.js';

export const DISCOVERY_STATUSES = ['PENDING', 'COMPLETE'] as const;

export const discoveryPartSchema = {
  title: 'DiscoveryPart',
  description:
    'Only with discoverOnInactive, when the check found the patient Inactive or not at all: the insurance discovery started for the same patient (poll it at GET /api/insurance-discovery/v1/{discoveryId}), or {message, code} when it could not start (e.g. DISCOVERY_LIMIT_EXCEEDED).',
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['discoveryId', 'status'],
      properties: {
        discoveryId: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: DISCOVERY_STATUSES },
        coverages: {
          type: 'array',
          maxItems: 10,
          items: { type: 'object', description: 'A DiscoveredCoverage, as POST /api/insurance-discovery/v1 answers it.' },
        },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['message', 'code'],
      properties: { message: str('Why no discovery started.'), code: str('The error code it would have answered.') },
    },
  ],
} as const;
