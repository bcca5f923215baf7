import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { AUTHORIZER_CACHE_SECONDS } from '../../lib/auth/tokens.js';
import { NO_STORE } from '../../lib/http/response.js';
import { corsHeaders, corsPolicy } from '../../lib/http/cors.js';
import { frontDoor } from '../../lib/http/fallback.js';
import { requestIdFor } from '../../lib/http/request-id.js';
import { FUNCTIONS as FUNCTION_SIZING } from '../cdk/functions.js';
import { listen } from '../listen.js';
import { hardenedServer, LOCAL_LIMITS, type HttpTimeouts } from './hardened-server.js';
import { IntegrationResponseStream, isStreamingHandler } from './awslambda.js';
import { authorizerEvent, methodArn, proxyEvent, type RequestShape } from './events.js';
import { parseRateLimits, rateLimiter } from './rate-limits.js';
import { loadHandler, type ApiHandler, type AuthorizerHandler, type FunctionName, type StreamingHandler } from './routes.js';
import { TtlLru } from './ttl-lru.js';

/**
 * A local stand-in for the API Gateway REST API: it matches resources from the route table
 * (lib/http/routes.ts; preflight, wrong methods and unknown paths go to the catch-all not-found
 * function, as in the stack), honours the caller's X-Request-Id, builds Lambda proxy events
 * (payload 1.0, headers in the client's casing), runs the Lambda REQUEST authorizer with a result
 * cache keyed by the Authorization header, evaluates its IAM policy, answers 401/403/429 the way the
 * gateway's customised responses do, applies per-client RATE_LIMITS, cuts buffered integrations at
 * 29 s and streams the letter function's answer (no cut). It never logs bodies.
 */

export interface LocalServerOptions {
  port?: number;
  host?: string;
  /** Authorizer result cache, as the stack's (seconds, default AUTHORIZER_CACHE_SECONDS; 0 disables; docs/runtime.md#revocation). */
  authorizerCacheSeconds?: number;
  /** `clientId=N/s,…`; defaults to the RATE_LIMITS variable; unset → no limits. */
  rateLimits?: string;
  /** The gateway's cut for buffered integrations (default 29 s; tests shorten it). Streamed ones are not cut. */
  integrationTimeoutMs?: number;
  /** Header and whole-request timeouts (defaults 10 s and 30 s; tests shorten them). docs/security.md#local-server */
  timeouts?: HttpTimeouts;
}

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/** Lambda's invocation payload limit. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(application\/([a-z0-9.+-]+\+)?json|text\/|application\/(x-www-form-urlencoded|xml))/i;
/** API Gateway's integration timeout for buffered (non-streamed) integrations. */
const BUFFERED_INTEGRATION_TIMEOUT_MS = 29_000;

type Exact = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };
const GATEWAY = {
  unauthorized: { status: 401, body: { message: 'Unauthorized' } },
  forbidden: { status: 403, body: { message: 'Forbidden' } },
  tooManyRequests: (retryAfter: number) => ({ status: 429, body: { message: 'Too Many Requests' }, headers: { 'retry-after': String(retryAfter) } }),
  authorizerFailed: { status: 500, body: { message: 'Internal Server Error' } },
  integrationFailed: { status: 500, body: { message: 'Internal Server Error' } },
  integrationTimeout: { status: 504, body: { message: 'Endpoint request timed out' } },
  tooLarge: (requestId: string) => ({
    status: 413,
    body: { message: 'The request body is larger than 6 MiB', code: 'PAYLOAD_TOO_LARGE', requestId },
  }),
} as const;

/** Whether an IAM policy from the authorizer allows invoking `arn` (an explicit Deny wins). */
export function policyAllows(policy: APIGatewayAuthorizerResult['policyDocument'] | undefined, arn: string): boolean {
  const matches = (resource: string | string[]) =>
    [resource].flat().some((pattern) => new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(arn));
  let allowed = false;
  for (const statement of policy?.Statement ?? []) {
    const resource = 'Resource' in statement ? statement.Resource : undefined;
    if (!resource || !matches(resource)) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

type AuthorizerOutcome = { kind: 'answer'; result: APIGatewayAuthorizerResult } | { kind: 'unauthorized' } | { kind: 'failed' };

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const cacheMs = (options.authorizerCacheSeconds ?? AUTHORIZER_CACHE_SECONDS) * 1000;
  // Bounded: a flood of distinct tokens cannot grow it without limit (docs/security.md#local-server).
  const authorizerCache = new TtlLru<APIGatewayAuthorizerResult>(LOCAL_LIMITS.authorizerCacheEntries, cacheMs);
  const limiter = rateLimiter(parseRateLimits(options.rateLimits ?? process.env.RATE_LIMITS));
  const integrationTimeoutMs = options.integrationTimeoutMs ?? BUFFERED_INTEGRATION_TIMEOUT_MS;

  /** Only policies are cached (as API Gateway does); a thrown 401 or a failure is asked again next time. */
  async function authorize(shape: RequestShape, header: string): Promise<AuthorizerOutcome> {
    const cached = authorizerCache.get(header);
    if (cached) return { kind: 'answer', result: cached };
    const authorizer = (await loadHandler('authorizer')) as AuthorizerHandler;
    try {
      const result = await authorizer(authorizerEvent(shape));
      authorizerCache.set(header, result);
      return { kind: 'answer', result };
    } catch (error) {
      return (error as Error | undefined)?.message === 'Unauthorized' ? { kind: 'unauthorized' } : { kind: 'failed' };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const rawHeaders = headerPairs(req);
    const headers = Object.fromEntries(rawHeaders);
    const requestId = requestIdFor(headers);
    // CORS headers for the gateway's own answers (401/403/413/429/500), as the stack's gateway responses.
    const cors = corsHeaders(corsPolicy(), headers);
    const door = frontDoor({ method, path: url.pathname, headers });
    const functionName: FunctionName = door.kind === 'route' ? door.route.function : 'not-found';

    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === 'too-large') return send(res, GATEWAY.tooLarge(requestId), requestId, cors);

    const shape: RequestShape = {
      method,
      path: url.pathname,
      resource: door.kind === 'route' ? door.route.path : '/{proxy+}',
      rawHeaders,
      query: url.searchParams,
      requestId,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      protocol: `HTTP/${req.httpVersion}`,
    };
    // Preflight, 405 and the unauthenticated routes (health, OpenAPI) skip the authorizer.
    const needsAuth = door.kind === 'not-found' || (door.kind === 'route' && door.route.auth);
    let context: Record<string, unknown> | null = null;
    if (needsAuth) {
      const authorization = rawHeaders.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
      if (!authorization) return send(res, GATEWAY.unauthorized, requestId, cors);
      const outcome = await authorize(shape, authorization);
      if (outcome.kind === 'unauthorized') return send(res, GATEWAY.unauthorized, requestId, cors);
      if (outcome.kind === 'failed') return send(res, GATEWAY.authorizerFailed, requestId, cors);
      if (!policyAllows(outcome.result.policyDocument, methodArn(method, url.pathname))) return send(res, GATEWAY.forbidden, requestId, cors);
      context = { ...(outcome.result.context ?? {}), principalId: outcome.result.principalId, integrationLatency: 0 };
      const clientId = typeof context.clientId === 'string' ? context.clientId : outcome.result.principalId;
      const wait = limiter.take(clientId);
      if (wait !== undefined) return send(res, GATEWAY.tooManyRequests(wait), requestId, cors);
    }

    // Bytes that are not UTF-8 travel base64-encoded, so the handler can refuse them instead of
    // reading U+FFFD where they were (docs/security.md#strict-json).
    const isText = TEXT_TYPES.test(rawHeaders.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '') && isUtf8(body);
    const event = proxyEvent(shape, body.length > 0 ? { text: isText ? body.toString('utf8') : body.toString('base64'), base64: !isText } : null, context);

    const handler = await loadHandler(functionName);
    if (isStreamingHandler(handler)) return stream(res, handler as StreamingHandler, event, functionName, requestId, cors);

    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), integrationTimeoutMs);
      });
      const invocation = (handler as ApiHandler)(event, lambdaContext(functionName, requestId));
      const result = await Promise.race([invocation, timeout]);
      if (result === 'timeout') return send(res, GATEWAY.integrationTimeout, requestId, cors);
      res.writeHead(result.statusCode ?? 200, { ...NO_STORE, 'x-request-id': requestId, ...(result.headers as Record<string, string>) });
      res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
    } catch {
      // A function that throws is a 500 from API Gateway, with its generic body.
      send(res, GATEWAY.integrationFailed, requestId, cors);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A streamed integration: the prelude becomes the status line and headers, body chunks go out as they come. */
  async function stream(res: ServerResponse, handler: StreamingHandler, event: ReturnType<typeof proxyEvent>, functionName: FunctionName, requestId: string, cors: Record<string, string>) {
    const responseStream = new IntegrationResponseStream({
      onPrelude: (prelude) => res.writeHead(prelude.statusCode ?? 200, { ...NO_STORE, 'x-request-id': requestId, ...prelude.headers }),
      onBody: (chunk) => res.write(chunk),
      onEnd: () => res.end(),
    });
    try {
      await handler(event, responseStream, lambdaContext(functionName, requestId));
    } catch {
      if (!res.headersSent) return send(res, GATEWAY.integrationFailed, requestId, cors);
    }
    if (!res.writableEnded) res.end();
  }

  const server = hardenedServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, { status: 500, body: { message: 'Internal Server Error' } }, 'unknown');
      else res.end();
    });
  }, options.timeouts);
  server.keepAliveTimeout = 5_000;
  const url = await listen(server, { port: options.port ?? 3000, ...(options.host ? { host: options.host } : {}) });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function send(res: ServerResponse, { status, body, headers }: Exact, requestId: string, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...extraHeaders, ...headers, 'content-type': 'application/json', ...NO_STORE, 'x-request-id': requestId, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Header name/value pairs as the client sent them (REST API events keep the casing). */
function headerPairs(req: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  return pairs;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The context Lambda passes; remaining time counts down from the function's timeout in the stack. */
function lambdaContext(functionName: FunctionName, requestId: string) {
  const deadline = Date.now() + FUNCTION_SIZING[functionName].timeoutSeconds * 1000;
  return {
    functionName: `local-${functionName}`,
    awsRequestId: requestId,
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${functionName}`,
    memoryLimitInMB: '1024',
    functionVersion: '$LATEST',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}
