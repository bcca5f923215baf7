import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { pathParametersOf } from '../../../lib/http/index.js';

/**
 * REST API events as API Gateway builds them (Lambda proxy integration, payload 1.0), for the local
 * server and the tests: headers keep the client's casing (`headers` holds the last value of a
 * repeated header, `multiValueHeaders` all of them), the authorizer's context fields sit in
 * `requestContext.authorizer`, and the stage is part of `requestContext.path`.
 */

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_API_ID = 'local';
export const LOCAL_STAGE = 'local';

export interface RequestShape {
  method: string;
  path: string;
  /** The matched resource (e.g. `/api/eligibility/v1`, or `/{proxy+}` for the catch-all). */
  resource: string;
  /** Header name/value pairs in arrival order, names as the client sent them. */
  rawHeaders: [string, string][];
  query?: URLSearchParams;
  requestId: string;
  sourceIp?: string;
  protocol?: string;
  now?: Date;
}

export function methodArn(method: string, path: string): string {
  return `arn:aws:execute-api:us-east-1:${LOCAL_ACCOUNT}:${LOCAL_API_ID}/${LOCAL_STAGE}/${method}${path}`;
}

/** `headers` (last copy of each name, as sent) and `multiValueHeaders` (every copy), names in the client's casing. */
export function headerMaps(rawHeaders: [string, string][]) {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, value] of rawHeaders) {
    headers[name] = value;
    const copies = multiValueHeaders[name] ?? [];
    copies.push(value);
    multiValueHeaders[name] = copies;
  }
  return { headers, multiValueHeaders };
}

function queryMaps(query: URLSearchParams | undefined) {
  if (!query || [...query.keys()].length === 0) return { queryStringParameters: null, multiValueQueryStringParameters: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of query) {
    single[name] = value;
    const values = multi[name] ?? [];
    values.push(value);
    multi[name] = values;
  }
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

function requestContext(shape: RequestShape, now: Date) {
  const userAgent = shape.rawHeaders.find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? null;
  return {
    accountId: LOCAL_ACCOUNT,
    apiId: LOCAL_API_ID,
    domainName: 'localhost',
    domainPrefix: 'localhost',
    extendedRequestId: shape.requestId,
    httpMethod: shape.method,
    identity: {
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp: shape.sourceIp ?? '127.0.0.1',
      user: null,
      userAgent,
      userArn: null,
    },
    path: `/${LOCAL_STAGE}${shape.path}`,
    protocol: shape.protocol ?? 'HTTP/1.1',
    requestId: shape.requestId,
    requestTime: now.toUTCString(),
    requestTimeEpoch: now.getTime(),
    resourceId: 'local',
    resourcePath: shape.resource,
    stage: LOCAL_STAGE,
  };
}

/** `{proxy}` for the catch-all, the `{name}` segments of a route such as `/api/payers/{payerId}`, else null. */
function pathParameters(shape: RequestShape): Record<string, string> | null {
  if (shape.resource === '/{proxy+}') return { proxy: shape.path.slice(1) };
  const params = pathParametersOf(shape.resource, shape.path);
  return params && Object.keys(params).length > 0 ? params : null;
}

/** The event the REQUEST authorizer receives. */
export function authorizerEvent(shape: RequestShape): APIGatewayRequestAuthorizerEvent {
  const now = shape.now ?? new Date();
  return {
    type: 'REQUEST',
    methodArn: methodArn(shape.method, shape.path),
    resource: shape.resource,
    path: shape.path,
    httpMethod: shape.method,
    ...headerMaps(shape.rawHeaders),
    pathParameters: pathParameters(shape),
    ...queryMaps(shape.query),
    stageVariables: null,
    requestContext: requestContext(shape, now),
  } as APIGatewayRequestAuthorizerEvent;
}

/** The event a route function receives; `authorizer` is the authorizer's context plus principalId. */
export function proxyEvent(
  shape: RequestShape,
  body: { text: string; base64: boolean } | null,
  authorizer: Record<string, unknown> | null,
): APIGatewayProxyEvent {
  const now = shape.now ?? new Date();
  return {
    resource: shape.resource,
    path: shape.path,
    httpMethod: shape.method,
    ...headerMaps(shape.rawHeaders),
    ...queryMaps(shape.query),
    pathParameters: pathParameters(shape),
    stageVariables: null,
    requestContext: { ...requestContext(shape, now), authorizer },
    body: body?.text ?? null,
    isBase64Encoded: body?.base64 ?? false,
  } as APIGatewayProxyEvent;
}
