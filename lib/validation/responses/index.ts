/**
 * The response schemas, declared once as JSON Schema `as const` (docs/api.md#response-shapes): the answer
 * types of lib/ are derived from them with json-schema-to-ts's `FromSchema` (types only: nothing of
 * it reaches a bundle), the OpenAPI document (infra/openapi) publishes them, and the tests validate
 * real answers against them. Objects are closed (`additionalProperties: false`): a new key starts here.
 */
import { batchAcceptedSchema, batchItemPageSchema, batchStatusSchema } from './batch.js';
import { cobResponseSchema } from './cob.js';
import { discoveryResponseSchema, mbiResponseSchema } from './discovery.js';
import { eligibilityResponseSchema, realEligibilityResponseSchema } from './eligibility.js';
import { errorResponseSchema, healthResponseSchema, messageOnlySchema } from './errors.js';
import { letterResponseSchema } from './letter.js';
import { payerPageSchema, payerSchema } from './payers.js';

export const RESPONSE_SCHEMAS = {
  eligibility: eligibilityResponseSchema,
  /** A real check's answer alone (the tests hold the 271 pipeline to it). */
  realEligibility: realEligibilityResponseSchema,
  cob: cobResponseSchema,
  letter: letterResponseSchema,
  health: healthResponseSchema,
  error: errorResponseSchema,
  messageOnly: messageOnlySchema,
  payer: payerSchema,
  payerPage: payerPageSchema,
  batchAccepted: batchAcceptedSchema,
  batchStatus: batchStatusSchema,
  batchItemPage: batchItemPageSchema,
  discovery: discoveryResponseSchema,
  mbi: mbiResponseSchema,
} as const;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
