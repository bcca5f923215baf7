import { Validations } from 'aws-cdk-lib';
import type { Method, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';

/**
 * cdk-nag findings acknowledged after review, each with the reason an auditor needs. Everything else
 * the AwsSolutions and HIPAA Security packs check is fixed in the resources themselves; a new finding
 * fails the synth (infra/cdk/app.ts) and test/infra/stack.test.ts. Acknowledgements are construct
 * metadata only: they change nothing in the template.
 */

export interface NagAcknowledgementsProps {
  functions: NodejsFunction[];
  /** Functions fed by an SQS event source mapping (the batch worker and webhook sender), not by API Gateway. */
  queueConsumers: NodejsFunction[];
  batchTable: Table;
  /** Each function's role policy. */
  functionPolicies: ManagedPolicy[];
  tokensSecret: Secret;
  vendorSecrets: Secret[];
  backupSelection: Construct;
  idempotencyTable: Table;
  api: RestApi;
  /** Methods that take no token. */
  openMethods: Method[];
}

export function acknowledgeFindings(scope: NagAcknowledgementsProps): void {
  for (const policy of scope.functionPolicies) {
    Validations.of(policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Only xray:PutTraceSegments and xray:PutTelemetryRecords use Resource "*"; X-Ray does not support resource-level permissions for them.',
    });
  }
  const noRotation = (secret: Secret, reason: string) =>
    Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason }, { id: 'HIPAA.Security-SecretsManagerRotationEnabled', reason });
  noRotation(
    scope.tokensSecret,
    "Holds SHA-256 digests of client bearer tokens (no usable credential) and each client's batch webhook signing secret. Both " +
      'rotate per client with the admin CLI (token create issues a new token that must be delivered to the client out of band, token ' +
      'revoke removes the old digest; webhook-secret rotate issues a new signing secret and keeps the old one signing beside it for ' +
      '24 h). A Secrets Manager rotation Lambda cannot deliver a new token or secret to the client, so automatic rotation would lock ' +
      'clients out or break their webhook verification.',
  );
  for (const secret of scope.vendorSecrets) {
    noRotation(
      secret,
      'Holds a third-party API key (Stedi or Anthropic) that can only be issued in the vendor console; no vendor API exists for a ' +
        'rotation Lambda to mint a key. Rotation is the operator runbook: create a new key, PutSecretValue, then revoke the old key.',
    );
  }
  for (const fn of scope.queueConsumers) {
    Validations.of(fn).acknowledge(
      {
        id: 'HIPAA.Security-LambdaDLQ',
        reason:
          'Invoked by an SQS event source mapping, not asynchronously: a failed message returns to its queue and, after 50 receives, ' +
          "goes to that queue's redrive queue (the dead-letter queue for this function). A function DLQ applies only to asynchronous invokes.",
      },
      {
        id: 'HIPAA.Security-LambdaConcurrency',
        reason:
          "Bounded by the event source mapping's MaximumConcurrency (batchMaxConcurrency, default 10, for the worker; 10 for the webhook " +
          'sender), which caps concurrent invocations without reserving account concurrency.',
      },
    );
  }
  const consumers = new Set(scope.queueConsumers);
  for (const fn of scope.functions) {
    const common = [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Pinned to nodejs22.x, the runtime the code is built (esbuild target node22) and tested for; it is in AWS standard support. ' +
          'Moving to a newer runtime is a deliberate, tested change rather than an automatic one.',
      },
      {
        id: 'HIPAA.Security-LambdaInsideVPC',
        reason:
          'The functions reach only public HTTPS endpoints (Stedi, Anthropic) and AWS APIs that are IAM-authorized and TLS-encrypted; ' +
          'no private resource exists to isolate, so a VPC would add NAT cost and cold-start latency without narrowing any data path.',
      },
      {
        id: 'HIPAA.Security-LambdaDLQ',
        reason:
          'Invoked synchronously by API Gateway only; the caller receives every failure as an HTTP error and no event is queued, so a ' +
          'dead-letter queue (which applies to asynchronous invocations) would never receive anything.',
      },
      {
        id: 'HIPAA.Security-LambdaConcurrency',
        reason:
          "Concurrency is bounded upstream by the stage throttle and each client's usage plan (figures in cdk.json). Reserved concurrency is not set because " +
          'accounts on the default concurrency quota (10) reject any reservation that leaves fewer than 10 unreserved, which fails the deploy.',
      },
    ];
    // A queue consumer's DLQ and concurrency findings have their own reasons (above).
    const findings = consumers.has(fn) ? common.filter(({ id }) => id !== 'HIPAA.Security-LambdaDLQ' && id !== 'HIPAA.Security-LambdaConcurrency') : common;
    Validations.of(fn).acknowledge(...findings);
  }
  Validations.of(scope.batchTable).acknowledge({
    id: 'HIPAA.Security-DynamoDBInBackupPlan',
    reason:
      'Holds batch items (eligibility requests and answers, patient data) that must disappear 7 days after their batch completes (TTL). ' +
      'A backup plan would keep copies for weeks; PITR with a 7-day window is the only recovery kept. Losing the table loses only ' +
      'results a client can ask for again by resubmitting the batch.',
  });
  Validations.of(scope.backupSelection).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
    reason:
      'The AWS Backup service role uses the AWS-maintained backup policy, which AWS updates as services add backup actions; the selection ' +
      'limits it to the enrollment table, and the role can be assumed only by backup.amazonaws.com.',
  });

  Validations.of(scope.idempotencyTable).acknowledge({
    id: 'HIPAA.Security-DynamoDBInBackupPlan',
    reason:
      'Holds stored idempotent answers that contain patient data and must disappear after 24 h (TTL). A backup plan would keep copies ' +
      'for weeks; PITR with a one-day window is the only recovery kept, so no copy outlives its record by more than a day. Losing the ' +
      'table loses only replays: clients then get a fresh answer.',
  });
  Validations.of(scope.api).acknowledge({
    id: 'AwsSolutions-APIG2',
    reason:
      'Request bodies are validated in each function against the JSON Schemas that also generate the published OpenAPI document (one ' +
      'schema source), which yields the field-by-field 400 INVALID_REQUEST answers integrators rely on. A gateway model would be a ' +
      'second copy of the schemas and would answer with a different, less precise body.',
  });
  const stage = scope.api.deploymentStage;
  Validations.of(stage).acknowledge(
    {
      id: 'AwsSolutions-APIG6',
      reason:
        'Execution logging needs an account-wide API Gateway CloudWatch role and writes to log groups outside this stack (not under the ' +
        'customer-managed key or the retention here). The JSON access log records every request with status, authorizer, integration ' +
        'and WAF errors, and the functions log their own failures, so execution logs would add only a second, unencrypted copy.',
    },
    {
      id: 'HIPAA.Security-APIGWExecutionLoggingEnabled',
      reason:
        'Audit controls (164.312(b)) are met by the KMS-encrypted JSON access log of every request (identity, route, status, errors) and ' +
        "the functions' structured logs; execution logs would be written unencrypted to account-level log groups outside this stack.",
    },
    {
      id: 'HIPAA.Security-APIGWCacheEnabledAndEncrypted',
      reason:
        'Every answer is computed for one client and may contain patient data; caching responses at the gateway would serve one ' +
        "request's answer to another and keep patient data outside the stores the service documents. Caching is deliberately off.",
    },
    {
      id: 'HIPAA.Security-APIGWSSLEnabled',
      reason:
        'A stage client certificate lets an HTTP backend authenticate API Gateway. Every integration here is a Lambda function invoked ' +
        'through the IAM-signed Lambda API over TLS, which cannot use a client certificate.',
    },
  );
  for (const method of scope.api.methods) {
    const reason =
      'Clients are server-side integrations authenticated by bearer tokens in a Lambda REQUEST authorizer, with per-client usage-plan ' +
      'keys; there are no end users to sign in to a Cognito user pool.';
    Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason });
  }
  for (const method of scope.openMethods) {
    Validations.of(method).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Public by design: the health check, the OpenAPI document and its API reference page carry no patient or client data, and a CORS preflight (OPTIONS) ' +
        'must be answered before a browser will send credentials. Every other method requires the bearer-token authorizer.',
    });
  }
}
