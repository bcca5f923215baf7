import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  Period,
  RequestAuthorizer,
  RestApi,
  type Method,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { PLAN_NAMES } from '../../../lib/auth/index.js';
import type { FunctionName } from '../functions.js';
import type { StackSettings } from '../settings.js';
import { addGatewayResponses } from './gateway-responses.js';
import { pascal } from '../ids.js';
import { addRoutes, type RouteMethods } from './routes.js';

/**
 * The regional API Gateway REST API (docs/deployment.md): its stage with a JSON access log, the
 * bearer-token REQUEST authorizer, the routes (routes.ts), the gateway's own answers
 * (gateway-responses.ts) and one usage plan per plan name. Built in the stack's scope.
 */

/**
 * One JSON line per request: identifiers, route template, status and timings only. No bodies,
 * headers, query strings or concrete paths are logged (docs/deployment.md#logs).
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTimeEpoch',
  // The resource template (e.g. /api/eligibility/v1 or /{proxy+}), never the path the caller sent.
  route: '$context.httpMethod $context.resourcePath',
  status: '$context.status',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integration.latency',
  integrationStatus: '$context.integration.status',
  responseLength: '$context.responseLength',
  clientId: '$context.authorizer.clientId',
  // The usage-plan key's id (not its value), which ties a 429 to a client's plan.
  apiKeyId: '$context.identity.apiKeyId',
  authorizerError: '$context.authorizer.error',
  errorMessage: '$context.error.message',
  errorType: '$context.error.responseType',
  wafStatus: '$context.waf.status',
  sourceIp: '$context.identity.sourceIp',
  // The Lambda request id, which joins this line to the function's own log lines.
  integrationRequestId: '$context.integration.requestId',
  integrationError: '$context.integration.error',
} as const;

export interface ServiceApiProps {
  /** Names the API and its usage plans: the stack's id. */
  name: string;
  functions: Record<FunctionName, NodejsFunction>;
  /** Encrypts the access log. */
  key: IKey;
  settings: Pick<
    StackSettings,
    'stageName' | 'throttleRateLimit' | 'throttleBurstLimit' | 'logRetention' | 'authorizerCacheSeconds' | 'corsOrigins' | 'usagePlans'
  >;
}

export class ServiceApi {
  readonly restApi: RestApi;
  /** The route table's methods by "<METHOD> <path>". */
  readonly methods: RouteMethods;
  /** In PLAN_NAMES order. */
  readonly usagePlans: UsagePlan[];

  constructor(stack: Stack, props: ServiceApiProps) {
    const { name, settings } = props;
    const accessLogs = new LogGroup(stack, 'ApiAccessLogs', {
      retention: settings.logRetention,
      encryptionKey: props.key,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.restApi = new RestApi(stack, 'RestApi', {
      restApiName: `${name}-api`,
      description: 'Eligibility, coordination of benefits and letter of medical necessity API',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Each client's usage-plan key comes from the authorizer (usageIdentifierKey), never from a header.
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // The printable eligibility summary (docs/api.md#printable-summary): a Lambda answer with
      // isBase64Encoded is sent as bytes when the request's Accept names a binary media type. Never
      // */* (that would make every JSON answer binary and every request body base64).
      binaryMediaTypes: ['application/pdf'],
      cloudWatchRole: false,
      deployOptions: {
        stageName: settings.stageName,
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: settings.throttleRateLimit,
        throttlingBurstLimit: settings.throttleBurstLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // The stack's ApiUrl output replaces the one RestApi adds by itself.
    this.restApi.node.tryRemoveChild('Endpoint');

    const authorizer = new RequestAuthorizer(stack, 'BearerTokenAuthorizer', {
      authorizerName: 'bearer-token',
      handler: props.functions.authorizer,
      // A request without the header is answered 401 by the gateway before the function runs.
      identitySources: [IdentitySource.header('Authorization')],
      // Keyed by the Authorization header, so a cached answer only ever serves the same token.
      resultsCacheTtl: Duration.seconds(settings.authorizerCacheSeconds),
    });
    this.methods = addRoutes(this.restApi, { functions: props.functions, authorizer, corsOrigins: settings.corsOrigins });
    // docs/deployment.md#errors: the gateway's own answers carry the API's error bodies.
    addGatewayResponses(this.restApi, settings.corsOrigins);

    // docs/deployment.md#plans: each client's throttle and quota, with a tighter limit on letters.
    const letterMethod = this.methods['POST /api/generate-letter']!;
    this.usagePlans = PLAN_NAMES.map((plan) => {
      const figures = settings.usagePlans[plan];
      return this.restApi.addUsagePlan(`${pascal(plan)}UsagePlan`, {
        name: `${name}-${plan}`,
        description: `${plan} plan: ${figures.rateLimit} requests/s (burst ${figures.burstLimit}), ${figures.monthlyQuota} requests/month, letters ${figures.letterRateLimit}/s`,
        throttle: { rateLimit: figures.rateLimit, burstLimit: figures.burstLimit },
        quota: { limit: figures.monthlyQuota, period: Period.MONTH },
        apiStages: [
          {
            api: this.restApi,
            stage: this.restApi.deploymentStage,
            throttle: [{ method: letterMethod, throttle: { rateLimit: figures.letterRateLimit, burstLimit: figures.letterBurstLimit } }],
          },
        ],
      });
    });
  }

  /** The methods anyone may call without a token: the public GETs, 405s on route paths, CORS preflights. */
  get openMethods(): Method[] {
    return this.restApi.methods.filter((m) => (m.node.defaultChild as { authorizationType?: string }).authorizationType === AuthorizationType.NONE);
  }
}
