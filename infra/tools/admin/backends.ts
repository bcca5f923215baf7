import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GetSecretValueCommand, PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type ClientToken, parseTokenSecret } from '../../../lib/auth/index.js';
import { dynamoEnrollmentStore } from '../../../lib/runtime/index.js';
import { type Enrollment, type EnrollmentStore, validateEnrollment } from '../../../lib/enrollment/index.js';
import { ServiceFailure } from '../../../lib/errors/index.js';

/**
 * Where the admin CLI keeps tokens and enrollments: AWS (Secrets Manager, DynamoDB) when the
 * deployed names are configured, else local files for `npm start`. Both speak the same formats
 * as the service: `{"clients":[{clientId,tokenSha256}]}` and an ENROLLMENTS_FILE-style array.
 */

export interface TokenBackend {
  describe: string;
  read(): Promise<ClientToken[]>;
  write(clients: ClientToken[]): Promise<void>;
}

const tokenDocument = (clients: ClientToken[]) => `${JSON.stringify({ clients }, null, 2)}\n`;

export function secretsManagerTokens(client: SecretsManagerClient, secretArn: string): TokenBackend {
  return {
    describe: 'Secrets Manager secret from API_TOKENS_SECRET_ARN',
    async read() {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
      if (SecretString === undefined) throw new Error('the token secret has no string value');
      return parseTokenSecret(SecretString);
    },
    async write(clients) {
      await client.send(new PutSecretValueCommand({ SecretId: secretArn, SecretString: tokenDocument(clients) }));
    },
  };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a document. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, file);
}

async function readJson(file: string): Promise<unknown | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SyntaxError) throw new Error(`${file} is not valid JSON`);
    throw error;
  }
}

export function fileTokens(file: string): TokenBackend {
  return {
    describe: file,
    async read() {
      const doc = await readJson(file);
      return doc === undefined ? [] : parseTokenSecret(JSON.stringify(doc));
    },
    write: (clients) => writeAtomically(file, tokenDocument(clients)),
  };
}

export interface EnrollmentBackend {
  describe: string;
  store: EnrollmentStore;
}

export function dynamoEnrollments(client: DynamoDBDocumentClient, tableName: string): EnrollmentBackend {
  return { describe: `DynamoDB table ${tableName}`, store: dynamoEnrollmentStore(client, tableName) };
}

/** A JSON array file; every write validates the record first, exactly like the DynamoDB store. */
export function fileEnrollments(file: string): EnrollmentBackend {
  const load = async (): Promise<Enrollment[]> => {
    const doc = await readJson(file);
    if (doc === undefined) return [];
    if (!Array.isArray(doc)) throw new Error(`${file} must hold a JSON array of enrollment records`);
    return doc as Enrollment[];
  };
  return {
    describe: file,
    store: {
      async get(providerId) {
        return (await load()).find((record) => record.providerId === providerId);
      },
      async put(enrollment) {
        const checked = validateEnrollment(enrollment);
        if (!checked.ok) throw new ServiceFailure(checked.error);
        const records = (await load()).filter((record) => record.providerId !== checked.value.providerId);
        records.push(checked.value);
        await writeAtomically(file, `${JSON.stringify(records, null, 2)}\n`);
      },
    },
  };
}
