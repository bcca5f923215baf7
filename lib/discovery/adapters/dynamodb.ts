/**
 * The discovery store (./store.ts) in the batch table (docs/finding-coverage.md#storage), under its own
 * key prefixes beside the batch rows (partition key `pk`, sort key `sk`):
 *   DISCOVERY#<discoveryId> / META          one discovery: client, the clearinghouse's id, status,
 *                                           the patient asked about, the coverages once COMPLETE
 *   CLIENT#<clientId> / DISCOVERIES#<day>   the client's discoveries sent upstream that UTC day
 * `expiresAt` (epoch seconds) is the table's TTL attribute: a discovery 24 hours after it started, a day's
 * count a day after that day ends. DynamoDB deletes expired rows late, so reads check `expiresAt` too.
 * The table is encrypted with the stack's key (infra/deploy/constructs/batch-stores.ts).
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DiscoveryRecord, DiscoveryStore } from '../store.js';

const discoveryKey = (discoveryId: string) => ({ pk: `DISCOVERY#${discoveryId}`, sk: 'META' });
const dayKey = (clientId: string, day: string) => ({ pk: `CLIENT#${clientId}`, sk: `DISCOVERIES#${day}` });
const isConditionFailure = (error: unknown) => (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

export function dynamoDiscoveryStore(client: DynamoDBDocumentClient, table: string): DiscoveryStore {
  return {
    async get(clientId, discoveryId, nowMs) {
      const row = (await client.send(new GetCommand({ TableName: table, Key: discoveryKey(discoveryId), ConsistentRead: true }))).Item;
      if (!row || row.clientId !== clientId || typeof row.expiresAt !== 'number' || row.expiresAt * 1000 <= nowMs) return undefined;
      const { pk: _pk, sk: _sk, ...record } = row;
      return record as DiscoveryRecord;
    },
    async put(record) {
      await client.send(new PutCommand({ TableName: table, Item: { ...discoveryKey(record.discoveryId), ...record } }));
    },
    async countOne(clientId, day, max, expiresAt) {
      try {
        await client.send(
          new UpdateCommand({
            TableName: table,
            Key: dayKey(clientId, day),
            UpdateExpression: 'ADD #n :one SET expiresAt = :expires',
            ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
            ExpressionAttributeNames: { '#n': 'discoveries' },
            ExpressionAttributeValues: { ':one': 1, ':max': max, ':expires': expiresAt },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
  };
}
