import type { Context } from 'aws-lambda';
import { ServiceFailure } from '../errors/index.js';
import {
  answerOf,
  type ApiEvent,
  type ChunkedHttpResponse,
  eventParameters,
  httpPipeline,
  lowerCaseHeaders,
  NO_STORE,
  type PipelineHandler,
} from '../http/index.js';
import { batchCsv } from './csv-output.js';
import { readBatchBody } from './request-body.js';
import { batchItems, type BatchRouteDeps, batchStatus, cancelBatch, ownBatch, submitBatch } from './routes.js';

/**
 * The batch function's handler (docs/batch.md): the four routes through the shared pipeline
 * (lib/http/pipeline.ts: request id, CORS, error bodies, one access-log line). Submit reads JSON or
 * CSV and takes an Idempotency-Key; the items route answers CSV when asked with `Accept: text/csv`,
 * the whole batch as chunks produced while it is sent (the function streams: functions/batch).
 */

export interface BatchHandlerOptions {
  idempotencyTable?: string;
}

export function batchHandler(deps: BatchRouteDeps, options: BatchHandlerOptions = {}) {
  const submit = httpPipeline({
    name: 'batch-submit',
    readBody: readBatchBody,
    authorized: true,
    idempotency: options.idempotencyTable ? { table: options.idempotencyTable } : {},
    answer: async ({ body, clientId, requestId }) => {
      const submitted = await submitBatch(deps, { body, clientId: clientId! });
      if (!submitted.ok) return answerOf(submitted, requestId);
      const answer = answerOf({ ok: true, status: submitted.value.status, body: submitted.value.body }, requestId);
      answer.response.headers.location = submitted.value.location;
      return { ...answer, log: { ...answer.log, batchId: String(submitted.value.body.batchId), items: Number(submitted.value.body.totalCount) } };
    },
  });

  const read = (
    name: string,
    run: (event: ApiEvent, clientId: string, requestId: string) => Promise<Awaited<ReturnType<PipelineHandler>> | ReturnType<typeof answerOf>>,
  ) =>
    httpPipeline({
      name,
      authorized: true,
      answer: async ({ event, clientId, requestId }) => {
        const result = await run(event as ApiEvent, clientId!, requestId);
        return 'response' in result ? result : { response: result };
      },
    });

  const batchId = (event: ApiEvent) => eventParameters(event).path.batchId ?? '';
  const status = read('batch-status', async (event, clientId, requestId) => answerOf(await batchStatus(deps, clientId, batchId(event)), requestId));
  const cancel = read('batch-cancel', async (event, clientId, requestId) => answerOf(await cancelBatch(deps, clientId, batchId(event)), requestId));
  const items = read('batch-items', async (event, clientId, requestId) => {
    const wantsCsv = /(^|,)\s*text\/csv/i.test(lowerCaseHeaders(event.headers).accept ?? '');
    if (!wantsCsv) return answerOf(await batchItems(deps, clientId, batchId(event), eventParameters(event).query), requestId);
    const batch = await ownBatch(deps.store, clientId, batchId(event));
    if (!batch.ok) throw new ServiceFailure(batch.error);
    const response: ChunkedHttpResponse = {
      statusCode: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        ...NO_STORE,
        'x-request-id': requestId,
        'content-disposition': `attachment; filename="batch-${batch.value.batchId}.csv"`,
      },
      body: '',
      chunks: batchCsv(deps.store, batch.value),
    };
    return { response, log: { batchId: batch.value.batchId } };
  });

  return (event: ApiEvent, context?: Context): Promise<ChunkedHttpResponse> => {
    const method = (event.httpMethod ?? '').toUpperCase();
    if (method === 'POST') return submit(event, context);
    if (method === 'DELETE') return cancel(event, context);
    return (event.resource ?? event.path ?? '').endsWith('/items') ? items(event, context) : status(event, context);
  };
}
