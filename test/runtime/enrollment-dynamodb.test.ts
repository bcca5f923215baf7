import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoEnrollmentStore } from '../../lib/runtime/enrollment-dynamodb.js';
import { ServiceFailure } from '../../lib/errors/index.js';
import type { Enrollment } from '../../lib/enrollment/types.js';
import { createEnrollmentTable, localDynamoClient, startDynalite, type LocalDynamo } from '../../infra/dev/local/enrollments.js';

let dynamo: LocalDynamo;
let client: DynamoDBDocumentClient;
const TABLE = 'enrollments-test';

beforeAll(async () => {
  dynamo = await startDynalite();
  client = localDynamoClient(dynamo.endpoint);
  await createEnrollmentTable(client, TABLE);
});

afterAll(async () => {
  client.destroy();
  await dynamo.close();
});

describe('dynamoEnrollmentStore', () => {
  it('round-trips a record through DynamoDB and misses an unknown provider', async () => {
    const store = dynamoEnrollmentStore(client, TABLE);
    const record: Enrollment = {
      providerId: 'P-1',
      clientId: 'acme',
      npi: '1234567893',
      firstName: 'Ada',
      lastName: 'L',
      status: 'active',
      payerIds: ['A', 'B'],
    };
    await store.put(record);
    expect(await store.get('P-1')).toEqual(record);
    expect(await store.get('P-unknown')).toBeUndefined();
  });

  it('overwrites on put, so a disable takes effect on the next read', async () => {
    const store = dynamoEnrollmentStore(client, TABLE);
    const record: Enrollment = { providerId: 'P-2', clientId: 'acme', npi: '1234567893', organizationName: 'Clinic', status: 'active' };
    await store.put(record);
    await store.put({ ...record, status: 'inactive' });
    expect((await store.get('P-2'))?.status).toBe('inactive');
  });

  it('refuses an invalid NPI before anything is written', async () => {
    const store = dynamoEnrollmentStore(client, TABLE);
    const bad: Enrollment = { providerId: 'P-3', clientId: 'acme', npi: '1234567890', organizationName: 'Clinic', status: 'active' };
    const error = await store.put(bad).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceFailure);
    expect((error as ServiceFailure).failure).toMatchObject({ code: 'INVALID_REQUEST', errors: [{ field: 'npi' }] });
    expect(await store.get('P-3')).toBeUndefined();
  });

  it('throws (without the data) on a stored record that does not validate', async () => {
    await client.send(new PutCommand({ TableName: TABLE, Item: { providerId: 'P-4', clientId: 'acme', npi: '0000000001', status: 'active' } }));
    const store = dynamoEnrollmentStore(client, TABLE);
    await expect(store.get('P-4')).rejects.toThrow(/malformed: npi, organizationName/);
  });

  it('surfaces a missing table as an error, not as "not enrolled"', async () => {
    await expect(dynamoEnrollmentStore(client, 'no-such-table').get('P-1')).rejects.toThrow();
  });
});

describe('dynamoEnrollmentStore.findByNpi', () => {
  it("finds the client's enrollments with an NPI, and no other client's", async () => {
    const store = dynamoEnrollmentStore(client, 'enrollments-npi');
    await createEnrollmentTable(client, 'enrollments-npi');
    const mine: Enrollment = { providerId: 'N-1', clientId: 'acme', npi: '1245319599', organizationName: 'Clinic', status: 'active' };
    const mineInactive: Enrollment = { ...mine, providerId: 'N-2', status: 'inactive' };
    await store.put(mine);
    await store.put(mineInactive);
    await store.put({ ...mine, providerId: 'N-3', clientId: 'other' });
    await store.put({ ...mine, providerId: 'N-4', npi: '1234567893' });
    const found = await store.findByNpi!('acme', '1245319599');
    expect(found.map((e) => e.providerId).sort()).toEqual(['N-1', 'N-2']);
    expect(await store.findByNpi!('acme', '1000000004')).toEqual([]);
  });
});
