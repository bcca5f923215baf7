import { type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceFailure } from '../errors/index.js';
import { type Enrollment, type EnrollmentStore, validateEnrollment } from '../enrollment/index.js';

/**
 * The DynamoDB adapter of the enrollment store port (`EnrollmentStore`, lib/enrollment/types.ts;
 * docs/architecture.md#ports-and-adapters): the enrollment table (partition key `providerId`). Reads are strongly consistent so a disable
 * takes effect on the next request. Writes go through validateEnrollment, so an invalid NPI or
 * a malformed record never reaches the table; the failure is a thrown ServiceFailure carrying
 * INVALID_REQUEST with the field errors (no values).
 */
export function dynamoEnrollmentStore(client: DynamoDBDocumentClient, tableName: string): EnrollmentStore {
  return {
    async get(providerId) {
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { providerId }, ConsistentRead: true }));
      return Item === undefined ? undefined : stored(Item);
    },
    /**
     * A scan filtered on clientId and npi: the table has no index on either (its one key is providerId), and
     * enrollments are a few rows per client, read only when a FHIR request names its provider by NPI.
     * A table grown past thousands of rows gets a global secondary index (clientId, npi) and a query here.
     */
    async findByNpi(clientId, npi) {
      const found: Enrollment[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({
            TableName: tableName,
            FilterExpression: 'clientId = :clientId AND npi = :npi',
            ExpressionAttributeValues: { ':clientId': clientId, ':npi': npi },
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        found.push(...(page.Items ?? []).map(stored));
        start = page.LastEvaluatedKey;
      } while (start);
      return found;
    },
    async put(enrollment: Enrollment) {
      const checked = validateEnrollment(enrollment);
      if (!checked.ok) throw new ServiceFailure(checked.error);
      await client.send(new PutCommand({ TableName: tableName, Item: checked.value }));
    },
  };
}

/** A stored record, checked: one that no longer validates is a data fault, never an enrollment. */
function stored(item: Record<string, unknown>): Enrollment {
  const checked = validateEnrollment(item);
  if (!checked.ok) throw new Error(`stored enrollment record is malformed: ${fieldList(checked.error.errors)}`);
  return checked.value;
}

const fieldList = (errors: { field: string }[] = []) => errors.map((e) => e.field).join(', ');
