import { join } from 'node:path';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseTokenList } from '../../../lib/auth/index.js';
import { DEFAULT_API_TOKENS } from '../../dev/local/environment.js';
import { apiGatewayKeys, parseUsagePlanIds } from './api-keys.js';
import { dynamoEnrollments, fileEnrollments, fileTokens, secretsManagerTokens } from './backends.js';
import { runAdmin, type AdminBackends } from './commands.js';

/**
 * `npm run admin -- <command>`. AWS backends when API_TOKENS_SECRET_ARN / ENROLLMENTS_TABLE are
 * set (region and credentials from the usual AWS environment; usage-plan keys in API Gateway with
 * USAGE_PLAN_IDS), otherwise files under .local/.
 */
export function backendsFromEnv(env: NodeJS.ProcessEnv, cwd: string): AdminBackends {
  return {
    tokens: () =>
      env.API_TOKENS_SECRET_ARN
        ? secretsManagerTokens(new SecretsManagerClient({}), env.API_TOKENS_SECRET_ARN)
        : fileTokens(join(cwd, '.local', 'tokens.json')),
    enrollments: () =>
      env.ENROLLMENTS_TABLE
        ? dynamoEnrollments(DynamoDBDocumentClient.from(new DynamoDBClient({})), env.ENROLLMENTS_TABLE)
        : fileEnrollments(env.ENROLLMENTS_FILE || join(cwd, '.local', 'enrollments.json')),
    // Plan ids are read when a command needs them, so `token list` and `token revoke` work without them.
    apiKeys: () => (env.API_TOKENS_SECRET_ARN ? apiGatewayKeys(new APIGatewayClient({}), () => parseUsagePlanIds(env.USAGE_PLAN_IDS)) : undefined),
    // What `npm start` accepts besides the file: API_TOKENS, or its dev default (client "local").
    listedTokens: () => (env.API_TOKENS_SECRET_ARN ? [] : parseTokenList(env.API_TOKENS?.trim() || DEFAULT_API_TOKENS)),
  };
}

const code = await runAdmin(process.argv.slice(2), backendsFromEnv(process.env, process.cwd()), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
