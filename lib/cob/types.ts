/**
 * Response shapes of the coordination-of-benefits search (docs/api.md#coordination-of-benefits), derived
 * from their one declaration (lib/validation/responses/cob.ts). Every optional field is omitted when the
 * upstream did not supply it: never null, "" or invented.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { additionalPlanBenefitSchema, cobResponseSchema, codeNameSchema, requestedPlanBenefitSchema } from '../validation/index.js';

export { COB_CODES } from '../validation/index.js';

export type CobResult = FromSchema<typeof cobResponseSchema>;
export type CobCode = CobResult['cobCode'];
export type AdditionalPlanBenefit = FromSchema<typeof additionalPlanBenefitSchema>;
export type RequestedPlanBenefit = FromSchema<typeof requestedPlanBenefitSchema>;
export type PayerPrimacy = NonNullable<AdditionalPlanBenefit['payerPrimacy']>;
export type ServiceTypeCode = FromSchema<typeof codeNameSchema>;
