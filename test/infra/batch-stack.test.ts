import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { FUNCTION_NAMES } from '../../infra/cdk/functions.js';
import { BATCH_MAX_RECEIVE_COUNT } from '../../infra/cdk/constructs/batch-stores.js';
import { EligibilityStack, PROJECT_ROOT } from '../../infra/cdk/stack.js';

/**
 * Batch in the stack (docs/batch.md#engine): the worker's event source mapping is capped at
 * batchMaxConcurrency with partial batch failures, both queues redrive to their dead-letter queues,
 * and the table and every queue are encrypted with the stack's customer-managed key.
 */

const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
type Resource = { Type: string; Properties: Record<string, any> };
let fixtureDir: string;
const synth = (extra: Record<string, unknown> = {}) => {
  const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...extra } });
  return Template.fromStack(new EligibilityStack(app, 'Batch', { functionsDir: fixtureDir })).toJSON().Resources as Record<string, Resource>;
};
let resources: Record<string, Resource>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const idOf = (prefix: string, type: string) => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]![0];
};

beforeAll(() => {
  mkdirSync(join(PROJECT_ROOT, 'cdk.out'), { recursive: true });
  fixtureDir = mkdtempSync(join(PROJECT_ROOT, 'cdk.out', 'batch-stack-functions-'));
  for (const name of FUNCTION_NAMES) {
    mkdirSync(join(fixtureDir, name));
    writeFileSync(join(fixtureDir, name, 'index.ts'), 'export const handler = async () => ({});\n');
  }
  resources = synth();
});
afterAll(() => rmSync(fixtureDir, { recursive: true, force: true }));

describe('batch in the stack', () => {
  it('feeds the worker from the item queue with MaximumConcurrency = batchMaxConcurrency (default 10) and partial batch failures', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
    const worker = mappings.find((m) => JSON.stringify(m.FunctionName).includes('BatchWorkerFunction'))!;
    expect(worker).toMatchObject({ ScalingConfig: { MaximumConcurrency: 10 }, FunctionResponseTypes: ['ReportBatchItemFailures'], BatchSize: 10 });
    expect(worker.EventSourceArn).toEqual({ 'Fn::GetAtt': [idOf('BatchItemQueue', 'AWS::SQS::Queue'), 'Arn'] });
    const webhook = mappings.find((m) => JSON.stringify(m.FunctionName).includes('BatchWebhookFunction'))!;
    expect(webhook).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect(webhook.EventSourceArn).toEqual({ 'Fn::GetAtt': [idOf('BatchWebhookQueue', 'AWS::SQS::Queue'), 'Arn'] });
    const scaled = Object.values(synth({ batchMaxConcurrency: 4 })).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && JSON.stringify(r.Properties.FunctionName).includes('BatchWorkerFunction'),
    );
    expect(scaled.map((r) => r.Properties.ScalingConfig)).toEqual([{ MaximumConcurrency: 4 }]);
    expect(() => synth({ batchMaxConcurrency: 1 })).toThrow(/batchMaxConcurrency/);
  });

  it('redrives both queues to their own dead-letter queues after the receive count', () => {
    for (const [queue, deadLetters] of [
      ['BatchItemQueue', 'BatchItemDeadLetters'],
      ['BatchWebhookQueue', 'BatchWebhookDeadLetters'],
    ] as const) {
      const props = resources[idOf(queue, 'AWS::SQS::Queue')]!.Properties;
      expect(props.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(deadLetters, 'AWS::SQS::Queue'), 'Arn'] },
        maxReceiveCount: BATCH_MAX_RECEIVE_COUNT,
      });
    }
    // An item backed off for 8 h (30 s doubling to 15 min) is received about 36 times: it must not be taken for poison.
    expect(BATCH_MAX_RECEIVE_COUNT).toBeGreaterThan(40);
  });

  it('encrypts the batch table and every queue with the stack’s customer-managed key, expires items by TTL and refuses plain HTTP', () => {
    const key = { 'Fn::GetAtt': [idOf('DataKey', 'AWS::KMS::Key'), 'Arn'] };
    const table = resources[idOf('BatchTable', 'AWS::DynamoDB::Table')]!.Properties;
    expect(table.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: key });
    expect(table.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    const queues = ofType('AWS::SQS::Queue');
    expect(queues).toHaveLength(4);
    for (const [, queue] of queues) expect(queue.Properties.KmsMasterKeyId).toEqual(key);
    const policies = ofType('AWS::SQS::QueuePolicy').map(([, r]) => JSON.stringify(r.Properties.PolicyDocument));
    expect(policies).toHaveLength(4);
    for (const policy of policies) expect(policy).toContain('"aws:SecureTransport":"false"');
  });

  it('streams every batch route (the results CSV is sent as it is read)', () => {
    const methods = ofType('AWS::ApiGateway::Method')
      .map(([, r]) => r.Properties)
      .filter((m) => JSON.stringify(m.Integration?.Uri ?? '').includes('BatchFunction'));
    expect(methods.map((m) => m.HttpMethod).sort()).toEqual(['DELETE', 'GET', 'GET', 'POST']);
    for (const method of methods) {
      expect(method.Integration.ResponseTransferMode).toBe('STREAM');
      expect(JSON.stringify(method.Integration.Uri)).toContain('/response-streaming-invocations');
    }
  });

  it('gives each batch function only its own queue calls', () => {
    const actionsOf = (fn: string) => {
      const role = resources[idOf(fn, 'AWS::Lambda::Function')]!.Properties.Role['Fn::GetAtt'][0];
      return Object.values(resources)
        .filter((r) => r.Type === 'AWS::IAM::ManagedPolicy' && r.Properties.Roles.some((ref: { Ref: string }) => ref.Ref === role))
        .flatMap((r) => r.Properties.PolicyDocument.Statement)
        .flatMap((s: { Action: string | string[] }) => [s.Action].flat())
        .filter((a: string) => a.startsWith('sqs:'))
        .sort();
    };
    expect(actionsOf('BatchFunction')).toEqual(['sqs:SendMessage']);
    expect(actionsOf('BatchWorkerFunction')).toEqual([
      'sqs:ChangeMessageVisibility',
      'sqs:DeleteMessage',
      'sqs:GetQueueAttributes',
      'sqs:ReceiveMessage',
      'sqs:SendMessage',
    ]);
    expect(actionsOf('BatchWebhookFunction')).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage']);
    expect(ofType('AWS::IAM::Policy')).toEqual([]);
  });
});
