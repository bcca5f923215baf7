import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceFailure } from '../errors/index.js';
import type { Enrollment, EnrollmentStore } from '../enrollment/types.js';
import { validateEnrollment } from '../enrollment/validate.js';

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
      if (Item === undefined) return undefined;
      const checked = validateEnrollment(Item);
      // A stored record that no longer validates is a data fault, never an enrollment.
      if (!checked.ok) throw new Error(`stored enrollment record is malformed: ${fieldList(checked.error.errors)}`);
      return checked.value;
    },
    async put(enrollment: Enrollment) {
      const checked = validateEnrollment(enrollment);
      if (!checked.ok) throw new ServiceFailure(checked.error);
      await client.send(new PutCommand({ TableName: tableName, Item: checked.value }));
    },
  };
}

const fieldList = (errors: { field: string }[] = []) => errors.map((e) => e.field).join(', ');
