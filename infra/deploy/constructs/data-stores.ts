import { Aws, RemovalPolicy, SecretValue, type Stack } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault, type BackupSelection } from 'aws-cdk-lib/aws-backup';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';

/**
 * Where the service keeps data (docs/deployment.md#where-each-part-lives): one customer-managed KMS
 * key, the three secrets, the enrollment table with its backup plan, and the idempotency table.
 *
 * Built in the stack's own scope, like every part in this folder (see ../stack.ts): the logical ids
 * stay those CloudFormation already knows, so a deployed table or secret is never replaced.
 */

/** Powertools idempotency's default attribute names (docs/deployment.md#idempotency). */
export const IDEMPOTENCY_TABLE_KEYS = { partitionKey: 'id', ttlAttribute: 'expiration' } as const;

export interface DataStoresProps {
  /** Names the key's alias (`alias/<name>-data`): the stack's id. */
  name: string;
}

export class DataStores {
  /** Encrypts secrets, tables, backups and logs: one place to audit and revoke. */
  readonly key: Key;
  readonly tokensSecret: Secret;
  readonly stediSecret: Secret;
  readonly anthropicSecret: Secret;
  readonly enrollmentsTable: Table;
  readonly idempotencyTable: Table;
  /** What the backup plan copies (the enrollment table only). */
  readonly backupSelection: BackupSelection;

  constructor(stack: Stack, props: DataStoresProps) {
    this.key = new Key(stack, 'DataKey', {
      description: 'Encrypts the eligibility service secrets, tables, backups and logs',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      alias: `alias/${props.name}-data`,
    });
    // CloudWatch Logs encrypts with the key only for log groups of this account and region.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal(`logs.${Aws.REGION}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:*` },
        },
      }),
    );

    this.tokensSecret = new Secret(stack, 'ApiTokensSecret', {
      description:
        'Bearer token digests and usage-plan keys: {"clients":[{"clientId","tokenSha256","plan","apiKeyId","usageIdentifierKey"}]}; managed with `npm run admin -- token ...`',
      encryptionKey: this.key,
      // Holds only SHA-256 digests and API key values (which grant nothing without a token), so
      // the empty initial document is not sensitive.
      secretStringValue: SecretValue.unsafePlainText('{"clients":[]}'),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The vendor keys start as random placeholders (never a literal in the template); an operator
    // puts the real key with PutSecretValue. A placeholder fails upstream auth → CONFIGURATION_ERROR.
    const vendorSecret = (id: string, description: string) =>
      new Secret(stack, id, {
        description,
        encryptionKey: this.key,
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        removalPolicy: RemovalPolicy.RETAIN,
      });
    this.stediSecret = vendorSecret('StediApiKeySecret', 'Stedi API key (plain string), sent as the Authorization header');
    this.anthropicSecret = vendorSecret('AnthropicApiKeySecret', 'Anthropic API key (plain string) for the letter generator');

    this.enrollmentsTable = new Table(stack, 'EnrollmentsTable', {
      partitionKey: { name: 'providerId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Stored answers of idempotent POSTs (docs/deployment.md#idempotency). They contain patient data
    // for 24 h: KMS-encrypted, expired by TTL, and recoverable by PITR for one day only, so no copy
    // outlives its record by more than a day. Deleting the stack deletes them.
    this.idempotencyTable = new Table(stack, 'IdempotencyTable', {
      partitionKey: { name: IDEMPOTENCY_TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      timeToLiveAttribute: IDEMPOTENCY_TABLE_KEYS.ttlAttribute,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true, recoveryPeriodInDays: 1 },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // PITR restores any second of the last 35 days; the backup plan keeps monthly copies for a
    // year in a vault that survives the table (HIPAA contingency plan, 164.308(a)(7)).
    const vault = new BackupVault(stack, 'BackupVault', { encryptionKey: this.key, removalPolicy: RemovalPolicy.RETAIN });
    const plan = new BackupPlan(stack, 'BackupPlan', {
      backupVault: vault,
      backupPlanRules: [BackupPlanRule.daily(), BackupPlanRule.monthly1Year()],
    });
    this.backupSelection = plan.addSelection('Enrollments', { resources: [BackupResource.fromDynamoDbTable(this.enrollmentsTable)] });
  }

  /** The third-party API keys, which only their vendor's console can issue. */
  get vendorSecrets(): Secret[] {
    return [this.stediSecret, this.anthropicSecret];
  }
}
