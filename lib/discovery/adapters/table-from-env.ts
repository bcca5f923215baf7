import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPlaces, environment, type Env } from '../../config/index.js';
import { dynamoDiscoveryStore } from './dynamodb.js';
import type { DiscoveryStore } from '../store.js';

/**
 * The discovery store when BATCH_TABLE is set (docs/finding-coverage.md#storage): discoveries share the
 * batch table under their own key prefix. The SDK reads AWS_ENDPOINT_URL_DYNAMODB, which `npm start`
 * points at dynalite.
 */
export function discoveryStoreFromEnv(env: Env = environment()): DiscoveryStore | undefined {
  const table = batchPlaces(env).table;
  return table ? dynamoDiscoveryStore(DynamoDBDocumentClient.from(new DynamoDBClient({})), table) : undefined;
}
