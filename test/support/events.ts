import { randomUUID } from 'node:crypto';
import type { ApiEvent } from '../../lib/http/api-handler.js';

/** A payload-2.0 event as API Gateway hands it to a route after the authorizer allowed it. */
export function apiEvent(
  routeKey: string,
  body: unknown,
  options: { clientId?: string; contentType?: string | null; rawBody?: string } = {},
): ApiEvent {
  const [method, path] = routeKey.split(' ');
  const headers: Record<string, string> = { authorization: 'Bearer test-token' };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey,
    rawPath: path!,
    rawQueryString: '',
    headers,
    isBase64Encoded: false,
    ...(options.rawBody !== undefined ? { body: options.rawBody } : body === undefined ? {} : { body: JSON.stringify(body) }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: method!, path: path!, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'jest' },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      authorizer: { lambda: { clientId: options.clientId ?? 'local' } },
    },
  } as ApiEvent;
}

export const lambdaContext = { functionName: 'test', awsRequestId: 'test', getRemainingTimeInMillis: () => 29_000 } as never;

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
}

export async function invoke(handler: (event: any, context: any) => Promise<any>, event: unknown): Promise<Reply> {
  const result = await handler(event, lambdaContext);
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
