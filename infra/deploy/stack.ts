import { join } from 'node:path';
import { CfnOutput, Fn, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { PLAN_NAMES } from '../../lib/auth/index.js';
import { ApiFunctions } from './constructs/api-functions.js';
import { BatchConsumers } from './constructs/batch-consumers.js';
import { BatchStores } from './constructs/batch-stores.js';
import { DataStores } from './constructs/data-stores.js';
import { acknowledgeFindings } from './constructs/nag-acknowledgements.js';
import { ServiceApi } from './constructs/rest-api.js';
import { Waf } from './constructs/waf.js';
import { PROJECT_ROOT, readSettings } from './settings.js';

/**
 * The whole service in one environment-agnostic stack (docs/deployment.md#where-each-part-lives): a
 * regional API Gateway REST API with a bearer-token Lambda REQUEST authorizer, per-client usage plans
 * and a WAF web ACL; one function per route (the letter streamed); three secrets, the enrollment table
 * and the idempotency table, all encrypted with one customer-managed KMS key.
 *
 * Each part lives in ./constructs and is built straight into this stack's scope rather than as a
 * child construct: a child would prefix every logical id inside it, and CloudFormation would replace
 * (empty) the deployed tables and secrets. test/infra/stack.test.ts holds the template to
 * the recorded one. A new part (a bucket, a queue) follows the same shape: a class in ./constructs
 * whose constructor takes this stack and typed props, created here in dependency order.
 */

export interface EligibilityStackProps extends StackProps {
  /** Folder holding one folder per function, each with index.ts (default: <repo>/functions). */
  functionsDir?: string;
}

export class EligibilityStack extends Stack {
  constructor(scope: Construct, id: string, props: EligibilityStackProps = {}) {
    super(scope, id, props);
    const settings = readSettings(this);

    const stores = new DataStores(this, { name: id });
    const batchStores = new BatchStores(this, { key: stores.key });
    const functions = new ApiFunctions(this, { stores, batchStores, settings, functionsDir: props.functionsDir ?? join(PROJECT_ROOT, 'functions') });
    new BatchConsumers({
      stores: batchStores,
      worker: functions.byName['batch-worker'],
      webhook: functions.byName['batch-webhook'],
      maxConcurrency: settings.batch.maxConcurrency,
    });
    const api = new ServiceApi(this, { name: id, functions: functions.byName, key: stores.key, settings });
    new Waf(this, {
      name: id,
      stage: api.restApi.deploymentStage,
      ratePerIp: settings.wafRateLimitPerIp,
      key: stores.key,
      logRetention: settings.logRetention,
    });

    acknowledgeFindings({
      functions: functions.all,
      queueConsumers: [functions.byName['batch-worker'], functions.byName['batch-webhook']],
      batchTable: batchStores.table,
      functionPolicies: functions.policies,
      tokensSecret: stores.tokensSecret,
      vendorSecrets: stores.vendorSecrets,
      backupSelection: stores.backupSelection,
      idempotencyTable: stores.idempotencyTable,
      api: api.restApi,
      openMethods: api.openMethods,
    });

    new CfnOutput(this, 'ApiUrl', { value: api.restApi.url, description: 'Base URL of the API (the stage); paths such as /api/eligibility/v1 follow it' });
    new CfnOutput(this, 'EnrollmentsTableName', { value: stores.enrollmentsTable.tableName, description: 'ENROLLMENTS_TABLE for the admin CLI' });
    new CfnOutput(this, 'ApiTokensSecretArn', { value: stores.tokensSecret.secretArn, description: 'API_TOKENS_SECRET_ARN for the admin CLI' });
    new CfnOutput(this, 'UsagePlanIds', {
      value: Fn.join(
        ',',
        PLAN_NAMES.map((name, i) => `${name}=${api.usagePlans[i]!.usagePlanId}`),
      ),
      description: 'USAGE_PLAN_IDS for the admin CLI (token create --plan)',
    });
    new CfnOutput(this, 'BatchItemDeadLettersUrl', {
      value: batchStores.itemDeadLetters.queueUrl,
      description: 'Batch item messages that failed 50 deliveries (docs/batch.md#engine)',
    });
    new CfnOutput(this, 'IdempotencyTableName', { value: stores.idempotencyTable.tableName, description: 'Stored idempotent answers (24 h)' });
    new CfnOutput(this, 'StediSecretArn', { value: stores.stediSecret.secretArn, description: 'Put the Stedi API key here' });
    new CfnOutput(this, 'AnthropicSecretArn', { value: stores.anthropicSecret.secretArn, description: 'Put the Anthropic API key here' });
  }
}
