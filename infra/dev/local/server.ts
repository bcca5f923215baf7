import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { AUTHORIZER_CACHE_SECONDS } from '../../../lib/auth/index.js';
import { corsHeaders, corsPolicy, errorResponse, frontDoor, NO_STORE, repeatedHeader, requestIdFor } from '../../../lib/http/index.js';
import { listen } from '../listen.js';
import { hardenedServer, type HttpTimeouts, LOCAL_LIMITS } from './hardened-server.js';
import { IntegrationResponseStream, isStreamingHandler } from './awslambda.js';
import { authorizerEvent, headerMaps, methodArn, proxyEvent, type RequestShape } from './events.js';
import { GATEWAY, headerPairs, lambdaContext, send, sendResponse } from './gateway-answers.js';
import { parseRateLimits, rateLimiter } from './rate-limits.js';
import { BodyBudget, readBody } from './request-body.js';
import { type ApiHandler, type AuthorizerHandler, type FunctionName, loadHandler, type StreamingHandler } from './routes.js';
import { TtlLru } from './ttl-lru.js';

/**
 * A local stand-in for the API Gateway REST API: it matches resources from the route table
 * (lib/http/routes.ts; preflight, wrong methods and unknown paths go to the catch-all not-found
 * function, as in the stack), honours the caller's X-Request-Id, builds Lambda proxy events
 * (payload 1.0, headers in the client's casing), runs the Lambda REQUEST authorizer with a result
 * cache keyed by the Authorization header, evaluates its IAM policy, answers 401/403/429 the way the
 * gateway's customised responses do, applies per-client RATE_LIMITS, cuts buffered integrations at
 * 29 s and streams the letter function's answer (no cut). It never logs bodies.
 *
 * Hostile input (docs/security.md#local-server): more headers than it reads is a 431, a repeated
 * Authorization, Idempotency-Key or X-Request-Id a 400; everything up to the authorizer's decision
 * and the rate limit happens on the headers alone, so a refused caller's body is never read
 * (`Expect: 100-continue` is answered only once the caller is let in), and the bytes of bodies held
 * at once are capped (503 with Retry-After at the cap).
 */

export interface LocalServerOptions {
  port?: number;
  host?: string;
  /** Authorizer result cache, as the stack's (seconds, default AUTHORIZER_CACHE_SECONDS; 0 disables; docs/runtime.md#revocation). */
  authorizerCacheSeconds?: number;
  /** The clock the authorizer cache expires entries on (default Date.now; tests step it instead of waiting). */
  now?: () => number;
  /** `clientId=N/s,…`; defaults to the RATE_LIMITS variable; unset → no limits. */
  rateLimits?: string;
  /** The gateway's cut for buffered integrations (default 29 s; tests shorten it). Streamed ones are not cut. */
  integrationTimeoutMs?: number;
  /** Header and whole-request timeouts (defaults 10 s and 30 s; tests shorten them). docs/security.md#local-server */
  timeouts?: HttpTimeouts;
  /** Bytes of request bodies held at once (default LOCAL_LIMITS.maxBodyBytesHeld; tests lower it). */
  maxBodyBytesHeld?: number;
}

export interface LocalServer {
  url: string;
  /** Stops listening, then waits for invocations still running (one cut by the gateway's timeout goes on). */
  close(): Promise<void>;
}

/** Lambda's invocation payload limit. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(application\/([a-z0-9.+-]+\+)?json|text\/|application\/(x-www-form-urlencoded|xml))/i;
/** API Gateway's integration timeout for buffered (non-streamed) integrations. */
const BUFFERED_INTEGRATION_TIMEOUT_MS = 29_000;
/** Retry-After of the 503 at the cap on bodies held at once: bodies are read within seconds. */
const BODIES_BUSY_RETRY_SECONDS = 1;

/** Whether an IAM policy from the authorizer allows invoking `arn` (an explicit Deny wins). */
export function policyAllows(policy: APIGatewayAuthorizerResult['policyDocument'] | undefined, arn: string): boolean {
  const matches = (resource: string | string[]) =>
    [resource].flat().some((pattern) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ).test(arn),
    );
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
  const authorizerCache = new TtlLru<APIGatewayAuthorizerResult>(LOCAL_LIMITS.authorizerCacheEntries, cacheMs, options.now);
  const limiter = rateLimiter(parseRateLimits(options.rateLimits ?? process.env.RATE_LIMITS));
  const integrationTimeoutMs = options.integrationTimeoutMs ?? BUFFERED_INTEGRATION_TIMEOUT_MS;
  const bodies = new BodyBudget(options.maxBodyBytesHeld ?? LOCAL_LIMITS.maxBodyBytesHeld);
  // Invocations still running: one the gateway cut at integrationTimeoutMs goes on, as in Lambda, and
  // close() waits for it, so nothing the server started outlives it.
  const running = new Set<Promise<unknown>>();
  const track = <T>(invocation: Promise<T>): Promise<T> => {
    const settled = invocation.then(
      () => undefined,
      () => undefined,
    );
    running.add(settled);
    void settled.then(() => running.delete(settled));
    return invocation;
  };

  /**
   * Only policies are cached (as API Gateway does); a thrown 401 or a failure is asked again next
   * time. `authorization` is the request's one Authorization value: the cache key and the value the
   * authorizer decides on are the same (repeated headers were refused before).
   */
  async function authorize(shape: RequestShape, authorization: string): Promise<AuthorizerOutcome> {
    const cached = authorizerCache.get(authorization);
    if (cached) return { kind: 'answer', result: cached };
    const authorizer = (await loadHandler('authorizer')) as AuthorizerHandler;
    try {
      const result = await authorizer(authorizerEvent(shape));
      authorizerCache.set(authorization, result);
      return { kind: 'answer', result };
    } catch (error) {
      return (error as Error | undefined)?.message === 'Unauthorized' ? { kind: 'unauthorized' } : { kind: 'failed' };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const rawHeaders = headerPairs(req);
    const { headers, multiValueHeaders } = headerMaps(rawHeaders);
    const repeated = repeatedHeader(multiValueHeaders);
    // A repeated X-Request-Id names no id: the answer gets a fresh one.
    const requestId = repeated?.header === 'X-Request-Id' ? randomUUID() : requestIdFor(headers);
    // CORS headers for the gateway's own answers (401/403/413/429/500), as the stack's gateway responses.
    const cors = corsHeaders(corsPolicy(), headers);
    if (rawHeaders.length > LOCAL_LIMITS.maxHeaders) return send(res, GATEWAY.tooManyHeaders(LOCAL_LIMITS.maxHeaders), requestId, cors);
    if (repeated) return sendResponse(res, errorResponse(repeated.error, requestId), cors);
    const door = frontDoor({ method, path: url.pathname, headers });
    const functionName: FunctionName = door.kind === 'route' ? door.route.function : 'not-found';

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

    // Only now is the body read, under the 6 MiB limit and the cap on bodies held at once.
    const read = await readBody(req, res, { maxBytes: MAX_BODY_BYTES, budget: bodies, beforeReading: () => expectsContinue && res.writeContinue() });
    if (read.kind === 'too-large') return send(res, GATEWAY.tooLarge(requestId), requestId, cors);
    if (read.kind === 'busy') return send(res, GATEWAY.bodiesBusy(BODIES_BUSY_RETRY_SECONDS), requestId, cors);
    const body = read.body;

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
      const invocation = track((handler as ApiHandler)(event, lambdaContext(functionName, requestId)));
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
  async function stream(
    res: ServerResponse,
    handler: StreamingHandler,
    event: ReturnType<typeof proxyEvent>,
    functionName: FunctionName,
    requestId: string,
    cors: Record<string, string>,
  ) {
    const responseStream = new IntegrationResponseStream({
      onPrelude: (prelude) => res.writeHead(prelude.statusCode ?? 200, { ...NO_STORE, 'x-request-id': requestId, ...prelude.headers }),
      onBody: (chunk) => res.write(chunk),
      onEnd: () => res.end(),
    });
    try {
      await track(handler(event, responseStream, lambdaContext(functionName, requestId)));
    } catch {
      if (!res.headersSent) return send(res, GATEWAY.integrationFailed, requestId, cors);
    }
    if (!res.writableEnded) res.end();
  }

  const serve = (expectsContinue: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res, expectsContinue).catch(() => {
      if (!res.headersSent) send(res, { status: 500, body: { message: 'Internal Server Error' } }, 'unknown');
      else res.end();
    });
  };
  const server = hardenedServer(serve(false), options.timeouts);
  // With a listener here Node no longer sends `100 Continue` by itself: handle() sends it once the caller is let in.
  server.on('checkContinue', serve(true));
  server.keepAliveTimeout = 5_000;
  const url = await listen(server, { port: options.port ?? 3000, ...(options.host ? { host: options.host } : {}) });
  return {
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await Promise.all(running);
    },
  };
}
