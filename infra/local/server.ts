import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NO_STORE } from '../../lib/http/response.js';
import { listen } from '../listen.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { corsHeaders, corsPolicy } from '../../lib/http/cors.js';
import { frontDoor } from '../../lib/http/fallback.js';
import { requestIdFor } from '../../lib/http/request-id.js';
import { hardenedServer, LOCAL_LIMITS, type HttpTimeouts } from './hardened-server.js';
import { loadHandler, type ApiHandler, type AuthorizerHandler, type FunctionName } from './routes.js';
import { TtlLru } from './ttl-lru.js';

/**
 * A local stand-in for API Gateway HTTP API: it matches routes from the route table
 * (lib/http/routes.ts; preflight, wrong methods and unknown paths go to the catch-all not-found
 * function, as in the stack), honours the caller's X-Request-Id, builds payload-2.0 events, runs the simple-response
 * Lambda authorizer with a result cache keyed by the Authorization header, answers 401/403 the way
 * API Gateway does, and writes the function's result back. It never logs bodies.
 */

export interface LocalServerOptions {
  port?: number;
  host?: string;
  /** Authorizer result cache, as the stack's (seconds; 0 disables). */
  authorizerCacheSeconds?: number;
  /** Header and whole-request timeouts (defaults 10 s and 30 s; tests shorten them). */
  timeouts?: HttpTimeouts;
}

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/** Lambda's synchronous invocation payload limit. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
const TEXT_TYPES = /^(application\/([a-z0-9.+-]+\+)?json|text\/|application\/(x-www-form-urlencoded|xml))/i;

type Exact = { status: number; body: Record<string, unknown> };
const GATEWAY = {
  unauthorized: { status: 401, body: { message: 'Unauthorized' } },
  forbidden: { status: 403, body: { message: 'Forbidden' } },
  authorizerFailed: { status: 500, body: { message: 'Internal Server Error' } },
  tooLarge: (requestId: string) => ({
    status: 413,
    body: { message: 'The request body is larger than 6 MiB', code: 'PAYLOAD_TOO_LARGE', requestId },
  }),
} as const;

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const cacheMs = (options.authorizerCacheSeconds ?? 300) * 1000;
  const authorizerCache = new TtlLru<{ isAuthorized: boolean; context?: Record<string, unknown> }>(LOCAL_LIMITS.authorizerCacheEntries, cacheMs);

  async function authorize(event: APIGatewayRequestAuthorizerEventV2, header: string) {
    const cached = authorizerCache.get(header);
    if (cached) return cached;
    const authorizer = (await loadHandler('authorizer')) as AuthorizerHandler;
    const decision = await authorizer(event);
    authorizerCache.set(header, decision);
    return decision;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    const headers = lowerCaseHeaders(req);
    const requestId = requestIdFor(headers);
    // CORS headers for the gateway's own answers (401/403/413/500), as the stack's gateway responses.
    const cors = corsHeaders(corsPolicy(), headers);
    const door = frontDoor({ method, path: url.pathname, headers });
    const functionName: FunctionName = door.kind === 'route' ? door.route.function : 'not-found';
    const routeKey = door.kind === 'route' ? `${method} ${url.pathname}` : '$default';

    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === 'too-large') return send(res, GATEWAY.tooLarge(requestId), requestId, cors);

    const requestContext = buildRequestContext(req, requestId, method, url.pathname, routeKey);
    // Preflight, 405 and the unauthenticated routes (health, OpenAPI) skip the authorizer.
    const needsAuth = door.kind === 'not-found' || (door.kind === 'route' && door.route.auth);
    let authorizerContext: Record<string, unknown> = {};
    if (needsAuth) {
      const authorization = headers.authorization;
      if (!authorization) return send(res, GATEWAY.unauthorized, requestId, cors);
      let decision;
      try {
        decision = await authorize(
          {
            version: '2.0',
            type: 'REQUEST',
            routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${method}${url.pathname}`,
            identitySource: [authorization],
            routeKey: requestContext.routeKey,
            rawPath: url.pathname,
            rawQueryString: url.search.slice(1),
            headers,
            requestContext,
          } as APIGatewayRequestAuthorizerEventV2,
          authorization,
        );
      } catch {
        return send(res, GATEWAY.authorizerFailed, requestId, cors);
      }
      if (!decision.isAuthorized) return send(res, GATEWAY.forbidden, requestId, cors);
      authorizerContext = decision.context ?? {};
    }

    // Bytes that are not UTF-8 travel base64-encoded, so the handler can refuse them instead of
    // reading U+FFFD where they were (docs/security.md#strict-json).
    const isText = TEXT_TYPES.test(headers['content-type'] ?? '') && isUtf8(body);
    const event: APIGatewayProxyEventV2 = {
      version: '2.0',
      routeKey: requestContext.routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      headers,
      requestContext: { ...requestContext, authorizer: { lambda: authorizerContext } } as APIGatewayProxyEventV2['requestContext'],
      isBase64Encoded: body.length > 0 && !isText,
    };
    if (body.length > 0) event.body = isText ? body.toString('utf8') : body.toString('base64');

    try {
      const handler = (await loadHandler(functionName)) as ApiHandler;
      const result = (await handler(event, lambdaContext(functionName, requestId))) as APIGatewayProxyStructuredResultV2;
      res.writeHead(result.statusCode ?? 200, { ...NO_STORE, 'x-request-id': requestId, ...(result.headers as Record<string, string>) });
      res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
    } catch {
      // A function that throws is a 500 from API Gateway, with its generic body.
      send(res, { status: 500, body: { message: 'Internal Server Error' } }, requestId, cors);
    }
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

function send(res: ServerResponse, { status, body }: Exact, requestId: string, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...extraHeaders, 'content-type': 'application/json', ...NO_STORE, 'x-request-id': requestId, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** API Gateway lower-cases header names and joins repeated ones with commas. */
function lowerCaseHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
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

function buildRequestContext(req: IncomingMessage, requestId: string, method: string, path: string, routeKey: string) {
  const now = new Date();
  return {
    accountId: '000000000000',
    apiId: 'local',
    domainName: req.headers.host ?? 'localhost',
    domainPrefix: 'localhost',
    http: {
      method,
      path,
      protocol: `HTTP/${req.httpVersion}`,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      userAgent: req.headers['user-agent'] ?? '',
    },
    requestId,
    routeKey,
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  };
}

function lambdaContext(functionName: string, requestId: string) {
  return {
    functionName: `local-${functionName}`,
    awsRequestId: requestId,
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:local-${functionName}`,
    memoryLimitInMB: '1024',
    functionVersion: '$LATEST',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 29_000,
  };
}
