import { join } from 'node:path';
import { Duration, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, type CfnFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { FontFile } from '../../../lib/pdf/index.js';
import { BUNDLING, FUNCTIONS, fontCopyCommands, sideBundleBuildCommands, sideBundlesOf, type FunctionName } from '../functions.js';
import { PROJECT_ROOT } from '../settings.js';
import { SHIPPED_MODULES, shipModulesCommands } from '../shipped-modules.js';
import { pascal } from '../ids.js';

/**
 * One of the service's Lambda functions (docs/deployment.md#functions): `functions/<name>/index.ts`
 * bundled by esbuild, sized from the function table (lib/http/functions.ts), with its own KMS-encrypted log group and
 * its own role whose one customer-managed policy lists exactly what the function may do (no
 * AWS-managed or inline policies). Built in the stack's scope (see ../stack.ts).
 */

export interface ServiceFunctionProps {
  name: FunctionName;
  /** Besides POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL and NODE_OPTIONS, which every function gets. */
  environment: Record<string, string>;
  /** What the function may do besides writing its own logs and X-Ray traces. */
  grants: PolicyStatement[];
  /** Folder holding one folder per function, each with index.ts. */
  functionsDir: string;
  /** Encrypts the log group. */
  key: IKey;
  logRetention: RetentionDays;
  powertoolsLogLevel: string;
  /** Font files copied into `fonts/` beside the bundle (the letter's Unicode fonts). */
  fonts?: readonly FontFile[];
  /** Other files copied into `assets/` beside the bundle under their `bundledAs` name (the API reference's script). */
  assets?: readonly AssetFile[];
}

/** A file of an npm package that a function reads at run time from `assets/` beside its bundle. */
export interface AssetFile {
  pkg: string;
  path: string;
  bundledAs: string;
}

export class ServiceFunction {
  readonly fn: NodejsFunction;
  /** The role's one policy (cdk-nag acknowledges its X-Ray `Resource: "*"`, nag-acknowledgements.ts). */
  readonly policy: ManagedPolicy;

  constructor(stack: Stack, props: ServiceFunctionProps) {
    const { name, fonts, assets } = props;
    const shipped: readonly string[] = (SHIPPED_MODULES as Partial<Record<FunctionName, readonly string[]>>)[name] ?? [];
    const logGroup = new LogGroup(stack, `${pascal(name)}Logs`, {
      retention: props.logRetention,
      encryptionKey: props.key,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const role = new Role(stack, `${pascal(name)}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the ${name} function`,
    });
    this.policy = new ManagedPolicy(stack, `${pascal(name)}Policy`, {
      description: `Exactly what the ${name} function reads and writes`,
      roles: [role],
      statements: [
        new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
        // X-Ray has no resource-level permissions for these two actions.
        new PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] }),
        ...props.grants,
      ],
    });
    this.fn = new NodejsFunction(stack, `${pascal(name)}Function`, {
      entry: join(props.functionsDir, name, 'index.ts'),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: FUNCTIONS[name].memoryMiB,
      timeout: Duration.seconds(FUNCTIONS[name].timeoutSeconds),
      role,
      logGroup,
      description: `Eligibility service: ${name}`,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      projectRoot: PROJECT_ROOT,
      environment: {
        POWERTOOLS_SERVICE_NAME: `eligibility-service-${name}`,
        POWERTOOLS_LOG_LEVEL: props.powertoolsLogLevel,
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        banner: BUNDLING.banner,
        esbuildArgs: { '--alias': Object.entries(BUNDLING.alias).map(([name, path]) => `${name}=${path}`) },
        define: { ...BUNDLING.define },
        mainFields: ['module', 'main'],
        minify: true,
        sourceMap: true,
        sourcesContent: BUNDLING.sourcesContent,
        target: 'node22',
        // Bundle the AWS SDK too: the tested version ships, not whatever the runtime carries. Only the
        // shipped modules (../shipped-modules.ts) stay outside, copied beside the bundle without an npm install.
        externalModules: [...shipped],
        forceDockerBundling: false,
        ...(fonts || assets || shipped.length || sideBundlesOf(name).length
          ? {
              commandHooks: {
                beforeBundling: () => [],
                beforeInstall: () => [],
                afterBundling: (inputDir: string, outputDir: string) => [
                  ...fontCopyCommands(fonts ?? [], inputDir, outputDir),
                  ...copyAssets(assets ?? [], inputDir, outputDir),
                  ...shipModulesCommands(shipped, inputDir, outputDir, join(PROJECT_ROOT, 'node_modules')),
                  // Worker threads and code loaded on first use, each a bundle of its own beside the handler (../functions.ts SIDE_BUNDLES).
                  ...sideBundleBuildCommands(name, inputDir, outputDir),
                ],
              },
            }
          : {}),
      },
    });
    // Tracing is set on the L1 so CDK does not add its own inline policy for X-Ray (granted above).
    (this.fn.node.defaultChild as CfnFunction).tracingConfig = { mode: Tracing.ACTIVE };
    this.fn.node.addDependency(this.policy);
  }
}

/** Files a function reads from `assets/` beside its bundled handler (lib/http/docs-page.ts). */
function copyAssets(assets: readonly AssetFile[], inputDir: string, outputDir: string): string[] {
  if (assets.length === 0) return [];
  return [`mkdir -p "${outputDir}/assets"`, ...assets.map((a) => `cp "${join(inputDir, 'node_modules', a.pkg, a.path)}" "${outputDir}/assets/${a.bundledAs}"`)];
}
