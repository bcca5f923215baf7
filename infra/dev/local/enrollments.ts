import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { CreateTableCommand, type CreateTableCommandInput, DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoEnrollmentStore } from '../../../lib/runtime/index.js';
import { type EnrollmentStore, validateEnrollment } from '../../../lib/enrollment/index.js';
import { type LocalDynamo, openDynalite, startDynaliteThread } from './dynalite-thread.js';

/**
 * Local enrollments (ENROLLMENTS_FILE, README.md#configuration): an in-process DynamoDB emulator (dynalite) on
 * loopback, so `npm start` exercises the same DynamoDB store code as Lambda with no account.
 */

// dynalite is CommonJS without type declarations; load it through require with the one call we use.
type DynaliteFactory = (options: { createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }) => Server;

export type { LocalDynamo };

/** Starts dynalite in memory on 127.0.0.1 with an ephemeral port, in this thread (tests; npm start runs it on a thread of its own: dynalite-thread.ts). */
export async function startDynalite(): Promise<LocalDynamo> {
  // Required here, not with the module: the local environment's dynalite runs on its thread and never needs it in this one.
  const dynalite = createRequire(import.meta.url)('dynalite') as DynaliteFactory;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** SDK clients for a loopback emulator: fixed region and dummy credentials, never the caller's. */
export function localDynamoClient(endpoint: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(client);
}

/** Creates a table unless it is there already (kept on disk from an earlier run), and waits until it is ACTIVE. */
export async function ensureTable(client: DynamoDBDocumentClient, input: CreateTableCommandInput): Promise<void> {
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceInUseException') throw error;
  }
  await tableSettled(client, input.TableName!, 'active');
}

/**
 * Waits until a table is ACTIVE, or gone: dynalite answers a create or a delete at once and finishes it
 * after (on disk, LOCAL_DATA_DIR, that can take a moment), and a write before then finds no table.
 */
async function tableSettled(client: DynamoDBDocumentClient, tableName: string, until: 'active' | 'gone'): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const status = await client.send(new DescribeTableCommand({ TableName: tableName })).then(
      (answer) => answer.Table?.TableStatus,
      (error: { name?: string }) => {
        if (error.name !== 'ResourceNotFoundException') throw error;
        return 'GONE';
      },
    );
    if (status === (until === 'active' ? 'ACTIVE' : 'GONE')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`local table ${tableName} is not ${until}`);
}

/** Deletes a table if it is there, and waits until it is gone. */
async function dropTable(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: tableName })).catch((error: { name?: string }) => {
    if (error.name !== 'ResourceNotFoundException') throw error;
  });
  await tableSettled(client, tableName, 'gone');
}

/** Creates the enrollment table with the same key schema as the CDK stack. */
export async function createEnrollmentTable(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  await ensureTable(client, {
    TableName: tableName,
    AttributeDefinitions: [{ AttributeName: 'providerId', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'providerId', KeyType: 'HASH' }],
    BillingMode: 'PAY_PER_REQUEST',
  });
}

/** Reads a JSON array of enrollment records; a bad record names its index and fields, never its data. */
export async function readEnrollmentsFile(file: string): Promise<unknown[]> {
  let records: unknown;
  try {
    records = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'not valid JSON';
    throw new Error(`ENROLLMENTS_FILE ${file} could not be read (${reason})`);
  }
  if (!Array.isArray(records)) throw new Error(`ENROLLMENTS_FILE ${file} must hold a JSON array of enrollment records`);
  records.forEach((record, index) => {
    const checked = validateEnrollment(record);
    if (!checked.ok) {
      const problems = (checked.error.errors ?? []).map((e) => `${e.field} ${e.message}`).join('; ');
      throw new Error(`ENROLLMENTS_FILE ${file}: record ${index} is invalid: ${problems}`);
    }
  });
  return records;
}

export interface LocalEnrollments {
  store: EnrollmentStore;
  endpoint: string;
  tableName: string;
  close(): Promise<void>;
}

export interface LocalEnrollmentsOptions {
  /** Tables kept on disk here (LOCAL_DATA_DIR) instead of in memory. */
  dataDir?: string;
  /** A running dynalite thread (startDynaliteHost) to open this store's own server on; default: a thread of its own. */
  thread?: Worker;
}

export async function startLocalEnrollments(file: string, options: LocalEnrollmentsOptions = {}): Promise<LocalEnrollments> {
  // Validate the whole file before starting anything, so a bad file leaves nothing running.
  const records = await readEnrollmentsFile(file);
  // The tables hold requests and answers (patient data): a directory made here is its owner's alone.
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const where = options.dataDir ? { path: options.dataDir } : {};
  const dynamo = options.thread ? await openDynalite(options.thread, where) : await startDynaliteThread(where);
  const tableName = 'enrollments';
  try {
    const client = localDynamoClient(dynamo.endpoint);
    // The file is the whole list (README.md#configuration): a table kept on disk (LOCAL_DATA_DIR) from an
    // earlier run starts empty, so a provider taken out of the file is no longer enrolled.
    await dropTable(client, tableName);
    await createEnrollmentTable(client, tableName);
    const store = dynamoEnrollmentStore(client, tableName);
    for (const record of records) await store.put(record as Parameters<EnrollmentStore['put']>[0]);
    return {
      store,
      endpoint: dynamo.endpoint,
      tableName,
      close: async () => {
        client.destroy();
        await dynamo.close();
      },
    };
  } catch (error) {
    await dynamo.close();
    throw error;
  }
}
