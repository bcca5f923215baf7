import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPlaces, environment, type Env } from '../../config/index.js';
import { dynamoBatchStore } from './dynamodb.js';
import type { BatchStore } from '../store.js';

/**
 * The batch table alone, when BATCH_TABLE is set: what the MCP server's get_batch_status reads
 * (docs/batch.md#poll), without the queue clients the batch functions carry (./wiring.ts).
 */
export function batchStoreFromEnv(env: Env = environment()): BatchStore | undefined {
  const table = batchPlaces(env).table;
  return table ? dynamoBatchStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), table) : undefined;
}
