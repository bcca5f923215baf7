import { ensureTable, localDynamoClient } from './enrollments.js';

/**
 * The local Idempotency-Key table (docs/runtime.md#idempotency), in the same in-process dynalite as
 * the enrollments, with the key schema the stack gives the real one (partition key `id`; the
 * `expiration` attribute holds each record's 24 h expiry, which Powertools also checks on read,
 * so expiry works even though dynalite has no TTL sweeper).
 */
export const LOCAL_IDEMPOTENCY_TABLE = 'idempotency';

export async function createIdempotencyTable(endpoint: string, tableName: string = LOCAL_IDEMPOTENCY_TABLE): Promise<string> {
  const client = localDynamoClient(endpoint);
  try {
    await ensureTable(client, {
      TableName: tableName,
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    });
  } finally {
    client.destroy();
  }
  return tableName;
}
