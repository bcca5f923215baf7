import { Writable } from 'node:stream';

/**
 * A stand-in for the `awslambda` global the Lambda Node.js runtime provides to streaming functions
 * (never deployed). `streamifyResponse` marks the handler as streaming, as the runtime's does;
 * `HttpResponseStream.from` writes the same HTTP integration framing Lambda sends API Gateway:
 * the JSON prelude (`statusCode`, `headers`), eight NUL bytes, then the body.
 *
 * `ResponseCapture` is a response stream for running a streaming handler in process; the local
 * server decodes the framing as it arrives and forwards the body to the HTTP client.
 */

export const STREAMING_MARK = Symbol.for('aws.lambda.runtime.handler.streaming');
export const HTTP_INTEGRATION_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
const DELIMITER = Buffer.alloc(8);

export interface Prelude {
  statusCode: number;
  headers: Record<string, string>;
}

interface ContentTyped {
  setContentType?: (type: string) => void;
}

const standIn = {
  streamifyResponse<T extends (...args: never[]) => unknown>(handler: T): T {
    Object.defineProperty(handler, STREAMING_MARK, { value: 'response' });
    return handler;
  },
  // Lambda's runtime has a class with a static `from`; callers only ever call `HttpResponseStream.from`.
  HttpResponseStream: {
    from(stream: Writable, prelude: Record<string, unknown>): Writable {
      (stream as Writable & ContentTyped).setContentType?.(HTTP_INTEGRATION_CONTENT_TYPE);
      stream.write(JSON.stringify(prelude));
      stream.write(DELIMITER);
      return stream;
    },
  },
};

/**
 * Installs the stand-in's members unless a real runtime (or an earlier call) provided them. Only
 * the members: the AWS SDK's invoke store creates an `awslambda` object of its own on import.
 */
export function installAwsLambdaStandIn(): void {
  const scope = globalThis as { awslambda?: Record<string, unknown> };
  scope.awslambda ??= {};
  const target = scope.awslambda;
  target.streamifyResponse ??= standIn.streamifyResponse;
  target.HttpResponseStream ??= standIn.HttpResponseStream;
}

export function isStreamingHandler(handler: unknown): boolean {
  return typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[STREAMING_MARK] === 'response';
}

export interface IntegrationSink {
  onPrelude(prelude: Prelude): void;
  onBody(chunk: Buffer): void;
  onEnd(): void;
}

/**
 * A response stream that splits the HTTP integration framing: `onPrelude` fires once with status
 * and headers, `onBody` with each body chunk after it, `onEnd` when the function ends the stream.
 */
export class IntegrationResponseStream extends Writable {
  contentType: string | undefined;
  #pending: Buffer = Buffer.alloc(0);
  #prelude: Prelude | undefined;

  constructor(private readonly sink?: IntegrationSink) {
    super();
  }

  setContentType(type: string): void {
    this.contentType = type;
  }

  protected onPrelude(prelude: Prelude): void {
    this.sink?.onPrelude(prelude);
  }

  protected onBody(chunk: Buffer): void {
    this.sink?.onBody(chunk);
  }

  protected onEnd(): void {
    this.sink?.onEnd();
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (this.#prelude) {
      this.onBody(data);
      callback();
      return;
    }
    this.#pending = Buffer.concat([this.#pending, data]);
    const at = this.#pending.indexOf(DELIMITER);
    if (at < 0) {
      callback();
      return;
    }
    try {
      this.#prelude = JSON.parse(this.#pending.subarray(0, at).toString('utf8')) as Prelude;
    } catch {
      callback(new Error('streamed response has no valid JSON prelude'));
      return;
    }
    this.onPrelude(this.#prelude);
    const rest = this.#pending.subarray(at + DELIMITER.length);
    this.#pending = Buffer.alloc(0);
    if (rest.length > 0) this.onBody(rest);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.#prelude) {
      callback(new Error('streamed response ended without an HTTP prelude'));
      return;
    }
    this.onEnd();
    callback();
  }
}

/** Collects a whole streamed answer in memory (tests, `npm run invoke`). */
export class ResponseCapture extends IntegrationResponseStream {
  prelude: Prelude | undefined;
  readonly chunks: Buffer[] = [];
  ended = false;

  protected override onPrelude(prelude: Prelude): void {
    this.prelude = prelude;
  }

  protected override onBody(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  protected override onEnd(): void {
    this.ended = true;
  }

  get body(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export interface BufferedResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Runs a function in process the way API Gateway would and returns what the client gets: a
 * buffered handler's result as is, a streaming handler's prelude and body collected.
 */
export async function invokeHandler(handler: unknown, event: unknown, context: unknown): Promise<BufferedResult> {
  if (!isStreamingHandler(handler)) {
    return (await (handler as (event: unknown, context: unknown) => Promise<BufferedResult>)(event, context)) as BufferedResult;
  }
  const capture = new ResponseCapture();
  await (handler as (event: unknown, stream: ResponseCapture, context: unknown) => Promise<void>)(event, capture, context);
  if (!capture.prelude || !capture.ended) throw new Error('the streaming handler returned without ending its response stream');
  return { statusCode: capture.prelude.statusCode, headers: capture.prelude.headers ?? {}, body: capture.body };
}
