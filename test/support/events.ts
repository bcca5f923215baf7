import { randomUUID } from 'node:crypto';
import { installAwsLambdaStandIn, invokeHandler } from '../../infra/dev/local/awslambda.js';
import { proxyEvent } from '../../infra/dev/local/events.js';
import type { ApiEvent } from '../../lib/http/api-handler.js';

export interface GatewayRequest {
  method: string;
  path: string;
  /** The resource template API Gateway matched (default: the path). */
  resource?: string;
  /** The headers as the client sent them, in its casing; a header may come twice. */
  rawHeaders: [string, string][];
  query?: string;
  /** A JSON value, or text sent as it is. */
  body?: unknown;
  requestId: string;
  /** The client the authorizer named (default `local`). */
  clientId?: string;
}

/**
 * A REST API proxy event (payload 1.0) as API Gateway hands it to a route after the authorizer
 * allowed it. Header names keep the casing given here, as the gateway keeps the client's.
 */
export function gatewayEvent({ method, path, resource = path, rawHeaders, query = '', body, requestId, clientId = 'local' }: GatewayRequest): ApiEvent {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return proxyEvent({ method, path, resource, rawHeaders, query: new URLSearchParams(query), requestId }, text === undefined ? null : { text, base64: false }, {
    clientId,
    principalId: clientId,
    integrationLatency: 0,
  }) as ApiEvent;
}

/** gatewayEvent for `routeKey` ("POST /api/eligibility/v1") with a test token, a JSON Content-Type and a fresh request id. */
export function apiEvent(
  routeKey: string,
  body: unknown,
  options: { clientId?: string; contentType?: string | null; rawBody?: string; headers?: Record<string, string> } = {},
): ApiEvent {
  const [method, path] = routeKey.split(' ');
  const headers: [string, string][] = [['Authorization', 'Bearer test-token']];
  if (options.contentType !== null) headers.push(['Content-Type', options.contentType ?? 'application/json']);
  for (const pair of Object.entries(options.headers ?? {})) headers.push(pair);
  const text = options.rawBody !== undefined ? options.rawBody : body === undefined ? undefined : JSON.stringify(body);
  return gatewayEvent({
    method: method!,
    path: path!,
    rawHeaders: headers,
    body: text,
    requestId: randomUUID(),
    ...(options.clientId ? { clientId: options.clientId } : {}),
  });
}

export const lambdaContext = { functionName: 'test', awsRequestId: 'test', getRemainingTimeInMillis: () => 29_000 } as never;

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
}

/** Runs a buffered or a streaming (letter) handler in process and parses its JSON answer. */
export async function invoke(handler: unknown, event: unknown): Promise<Reply> {
  installAwsLambdaStandIn();
  const result = await invokeHandler(handler, event, lambdaContext);
  return { status: result.statusCode, headers: result.headers, body: JSON.parse(result.body) };
}

export const MOCK_SET_1 = {
  patientFirstName: 'John',
  patientLastName: 'Doe',
  patientDOB: '01-01-1980',
  patientMemberId: '123456789',
  dateOfCoverage: '01-01-2025',
  payerId: 'PAYER001',
  providerId: 'PROVIDER001',
  mockRequest: true,
};

/**
 * A real (non-mock) request for the sandbox clearinghouse's Maria Garcia (active PPO), from the
 * provider the local environment enrolls; tests override fields as they need.
 */
export const SANDBOX_GARCIA = {
  patientFirstName: 'Maria',
  patientLastName: 'Garcia',
  patientDOB: '04-12-1985',
  patientMemberId: 'PPO100001',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
};

/** The sandbox clearinghouse's Carlos Rivera (active PPO), from the provider the local environment enrolls. */
export const SANDBOX_RIVERA = {
  patientFirstName: 'Carlos',
  patientLastName: 'Rivera',
  patientDOB: '10-03-1983',
  patientMemberId: 'PPO500005',
  dateOfCoverage: '03-01-2025',
  payerId: 'SBXPPO',
  providerId: 'PROVIDER-SANDBOX-1',
};
