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
 * a stand-in (infra/local/awslambda.ts) before loading a streaming function.
 */

export type BufferedPipeline<E> = (event: E, context: Context) => Promise<HttpResponse>;

/** Writes one buffered response as an HTTP integration response stream: prelude, then body, then end. */
export async function writeHttpResponse(responseStream: Writable, response: HttpResponse): Promise<void> {
  const stream = awslambda.HttpResponseStream.from(responseStream, { statusCode: response.statusCode, headers: response.headers });
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(response.body, () => resolve());
  });
}

/** Wraps a buffered pipeline as a streaming Lambda handler (`awslambda.streamifyResponse`). */
export function streamingHandler<E>(pipeline: BufferedPipeline<E>) {
  return awslambda.streamifyResponse(async (event: E, responseStream: Writable, context: Context) => {
    await writeHttpResponse(responseStream, await pipeline(event, context));
  });
}
