import { ServiceFailure, serviceError } from '../../errors/index.js';
import { describeException, log } from '../../logging/index.js';
import { errorResponse } from '../response.js';
import { stateOf, type PipelineRequest, type PipelineMiddleware } from './state.js';

/**
 * Any step's failure becomes its answer: a ServiceFailure its status and body (docs/api.md#errors),
 * anything else a 500 INTERNAL_ERROR that shows nothing of the exception (its name and frames are
 * logged, never its message, which may quote input).
 */
export function errorHandler(route: string): PipelineMiddleware {
  return {
    name: 'error-handler',
    onError: (request: PipelineRequest) => {
      const state = stateOf(request);
      const error = request.error;
      let failure = error instanceof ServiceFailure ? error.failure : undefined;
      if (!failure) {
        log.error('unhandled exception', { route, ...describeException(error) });
        failure = serviceError('INTERNAL_ERROR');
      }
      if ('code' in failure) state.log.code = failure.code;
      request.response = errorResponse(failure, state.requestId);
    },
  };
}
