import { ServiceFailure } from '../../errors/index.js';
import { validateBody, type SchemaName } from '../../validation/index.js';
import { stateOf, type PipelineRequest, type PipelineMiddleware } from './state.js';

/** Schema validation of the parsed body: 400 INVALID_REQUEST listing every problem. */
export function validateRequestBody(schema: SchemaName): PipelineMiddleware {
  return {
    name: 'validate-body',
    before: (request: PipelineRequest) => {
      const state = stateOf(request);
      const valid = validateBody(schema, state.body);
      if (!valid.ok) throw new ServiceFailure(valid.error);
      state.body = valid.value;
    },
  };
}
