import type { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';
import type { HttpResponse } from './response.js';

/**
 * Response streaming for the letter route (docs/runtime.md#streamed-letter). API Gateway invokes the function
 * with InvokeWithResponseStream, so the gateway's 30 s integration cut does not apply. The answer
 * is still one JSON document: the HTTP prelude (status and headers, through
 * `awslambda.HttpResponseStream.from`) followed by the body the buffered pipeline produced.
 *
 * `awslambda` is a global the Lambda Node.js runtime provides; the local server and tests install
 * a stand-in (infra/dev/local/awslambda.ts) before loading a streaming function.
 */

/**
 * A response whose body is produced as it is sent (the batch results as CSV, docs/batch.md#results-as-csv):
 * `body` is empty and `chunks` yields the text. Only a streaming handler can send one.
 */
export type ChunkedHttpResponse = HttpResponse & { chunks?: AsyncIterable<string> };

export type BufferedPipeline<E> = (event: E, context: Context) => Promise<ChunkedHttpResponse>;

/** Writes a response as an HTTP integration response stream: prelude, then the body (or its chunks, as they come), then end. */
async function writeHttpResponse(responseStream: Writable, response: ChunkedHttpResponse): Promise<void> {
  const stream = awslambda.HttpResponseStream.from(responseStream, { statusCode: response.statusCode, headers: response.headers });
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  if (response.chunks) {
    for await (const chunk of response.chunks) {
      // Wait when the stream's buffer is full, so memory stays flat however large the body.
      if (!stream.write(chunk)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), failed]);
    }
  }
  await Promise.race([new Promise<void>((resolve) => stream.end(response.chunks ? undefined : response.body, () => resolve())), failed]);
}

/** Wraps a buffered pipeline as a streaming Lambda handler (`awslambda.streamifyResponse`). */
export function streamingHandler<E>(pipeline: BufferedPipeline<E>) {
  return awslambda.streamifyResponse(async (event: E, responseStream: Writable, context: Context) => {
    await writeHttpResponse(responseStream, await pipeline(event, context));
  });
}
