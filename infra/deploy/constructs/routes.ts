import { Duration } from 'aws-cdk-lib';
import {
  AuthorizationType,
  type IAuthorizer,
  type IResource,
  LambdaIntegration,
  type Method,
  type MethodOptions,
  ResponseTransferMode,
  type RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { type FunctionRow, ROUTE_TABLE } from '../../../lib/http/index.js';
import { type FunctionName, FUNCTIONS } from '../functions.js';

/**
 * The API's methods (docs/deployment.md#routes): every entry of the route table (lib/http/routes.ts),
 * as the local server serves it, and the not-found function behind everything else.
 */

export interface RoutesProps {
  functions: Record<FunctionName, NodejsFunction>;
  /** The bearer-token authorizer of the authenticated methods. */
  authorizer: IAuthorizer;
  /** Empty when CORS is off: then no OPTIONS methods exist. */
  corsOrigins: string[];
}

/** Each route's method by "<METHOD> <path>". */
export type RouteMethods = Record<string, Method>;

export function addRoutes(api: RestApi, props: RoutesProps): RouteMethods {
  const authenticated: MethodOptions = { authorizer: props.authorizer, authorizationType: AuthorizationType.CUSTOM, apiKeyRequired: true };
  const open: MethodOptions = { authorizationType: AuthorizationType.NONE, apiKeyRequired: false };

  // One integration (and one API-scoped invoke permission) for everything the not-found function answers.
  const notFound = new LambdaIntegration(props.functions['not-found'], { scopePermissionToMethod: false });
  // The function table says which answers are streamed (docs/deployment.md#streaming: the letter may take
  // up to 120 s; docs/batch.md#results-as-csv: a whole batch's results CSV is sent as it is read, past 6 MB).
  const integrationFor = (name: FunctionName) => {
    const row: FunctionRow = FUNCTIONS[name];
    if (!row.streaming) return new LambdaIntegration(props.functions[name]);
    return new LambdaIntegration(props.functions[name], {
      responseTransferMode: ResponseTransferMode.STREAM,
      ...(row.integrationTimeoutSeconds === undefined ? {} : { timeout: Duration.seconds(row.integrationTimeoutSeconds) }),
    });
  };

  const methods: RouteMethods = {};
  const routeResources = new Set<IResource>();
  for (const route of ROUTE_TABLE) {
    const resource = api.root.resourceForPath(route.path);
    methods[`${route.method} ${route.path}`] = resource.addMethod(route.method, integrationFor(route.function), route.auth ? authenticated : open);
    routeResources.add(resource);
  }
  // Everything else reaches the not-found function, which answers from the same table: a wrong
  // method on a route's path is 405 with Allow (no token needed, as locally); any other path,
  // including / and the folders above the routes, is 404 NOT_FOUND after authorization, so an
  // anonymous caller learns nothing about which paths exist. With CORS on, a route's OPTIONS is
  // the unauthenticated preflight.
  api.root.addProxy({ anyMethod: false });
  const everyResource = (resource: IResource): IResource[] => [resource, ...resource.node.children.filter(isResource).flatMap(everyResource)];
  for (const resource of everyResource(api.root)) {
    resource.addMethod('ANY', notFound, routeResources.has(resource) ? open : authenticated);
    if (props.corsOrigins.length && routeResources.has(resource)) resource.addMethod('OPTIONS', notFound, open);
  }
  return methods;
}

const isResource = (node: unknown): node is IResource =>
  typeof node === 'object' && node !== null && 'resourceId' in node && 'addMethod' in node && 'path' in node;
