import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { startClearinghouseSandbox } from '../sandbox/clearinghouse.js';
import { startMessagesSandbox } from '../sandbox/messages-api.js';
import { startLocalEnrollments } from './enrollments.js';
import { createBatchTable, LOCAL_BATCH_TABLE, startLocalBatch } from './batch.js';
import { createIdempotencyTable } from './idempotency.js';

/**
 * Everything a local run needs besides the functions themselves (README.md#configuration), expressed as the
 * same environment variables Lambda reads: a dev token, the built-in sandboxes standing in for
 * Stedi and Anthropic when no key is set, and an in-process DynamoDB (dynalite) loaded from
 * ENROLLMENTS_FILE. Nothing here runs in AWS.
 */

export const DEFAULT_API_TOKENS = 'local=local-dev-token';
export const SAMPLE_ENROLLMENTS_FILE = fileURLToPath(new URL('./enrollments.sample.json', import.meta.url));
const SANDBOX_KEY = 'sandbox-key';

export interface LocalEnvironment {
  /** What was set up, for the start banner (no secrets beyond the local dev token). */
  notes: string[];
  devToken?: string;
  close(): Promise<void>;
}

type Env = Record<string, string | undefined>;

export interface LocalEnvironmentOptions {
  /** Where `.local/tokens.json` is looked for (default: the working directory, as the admin CLI). */
  cwd?: string;
  /** The in-process queue's time scale (tests shorten SQS seconds). */
  batch?: { msPerSecond?: number };
  /** A running dynalite thread (startDynaliteHost) for this environment's own DynamoDB; default: a thread of its own (tests share one per process). */
  dynaliteThread?: Worker;
}

export async function startLocalEnvironment(env: Env = process.env, options: LocalEnvironmentOptions = {}): Promise<LocalEnvironment> {
  const notes: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  const sandboxes: string[] = [];
  try {
    let devToken: string | undefined;
    if (!env.API_TOKENS?.trim() && !env.API_TOKENS_SECRET_ARN?.trim()) {
      env.API_TOKENS = DEFAULT_API_TOKENS;
      devToken = DEFAULT_API_TOKENS.split('=')[1];
      notes.push(`API_TOKENS not set: client "local" uses the dev token ${devToken}`);
    }
    // Tokens made by `npm run admin -- token create` (no AWS variables) work here too, also when the
    // CLI writes the default file for the first time while the server runs (it is read on every call).
    const namedFile = env.API_TOKENS_FILE?.trim();
    const tokensFile = namedFile || join(options.cwd ?? process.cwd(), '.local', 'tokens.json');
    if (!env.API_TOKENS_SECRET_ARN?.trim()) {
      env.API_TOKENS_FILE = tokensFile;
      if (!namedFile) env.API_TOKENS_FILE_OPTIONAL = 'true';
      const pending = existsSync(tokensFile) ? '' : ' once it exists';
      notes.push(`also accepting the tokens in ${tokensFile} (npm run admin -- token create)${pending}`);
    }

    if (!env.STEDI_API_KEY?.trim() && !env.STEDI_SECRET_ARN?.trim()) {
      const sandbox = await startClearinghouseSandbox({ apiKey: SANDBOX_KEY });
      closers.push(() => sandbox.close());
      env.STEDI_BASE_URL = sandbox.url;
      env.STEDI_API_KEY = SANDBOX_KEY;
      sandboxes.push('stedi');
      notes.push(`STEDI_API_KEY not set: eligibility and COB use the sandbox clearinghouse at ${sandbox.url}`);
    }

    if (!env.ANTHROPIC_API_KEY?.trim() && !env.ANTHROPIC_SECRET_ARN?.trim()) {
      const sandbox = await startMessagesSandbox();
      closers.push(() => sandbox.close());
      env.ANTHROPIC_BASE_URL = sandbox.url;
      env.ANTHROPIC_API_KEY = SANDBOX_KEY;
      sandboxes.push('anthropic');
      notes.push(`ANTHROPIC_API_KEY not set: letters are written by the sandbox Messages API at ${sandbox.url}`);
    }
    env.SANDBOX_UPSTREAMS = sandboxes.join(',');

    if (!env.ENROLLMENTS_TABLE?.trim()) {
      // ENROLLMENTS_FILE replaces the sample (it is not merged with it).
      const file = env.ENROLLMENTS_FILE?.trim() || SAMPLE_ENROLLMENTS_FILE;
      const dataDir = env.LOCAL_DATA_DIR?.trim();
      const enrollments = await startLocalEnrollments(file, {
        ...(dataDir ? { dataDir } : {}),
        ...(options.dynaliteThread ? { thread: options.dynaliteThread } : {}),
      });
      closers.push(() => enrollments.close());
      env.ENROLLMENTS_TABLE = enrollments.tableName;
      env.AWS_ENDPOINT_URL_DYNAMODB = enrollments.endpoint;
      env.AWS_REGION ??= 'us-east-1';
      env.AWS_ACCESS_KEY_ID ??= 'local';
      env.AWS_SECRET_ACCESS_KEY ??= 'local';
      notes.push(
        file === SAMPLE_ENROLLMENTS_FILE
          ? `enrollments loaded from the sample ${file} into in-process DynamoDB (dynalite); ENROLLMENTS_FILE replaces it`
          : `enrollments loaded from ${file} (ENROLLMENTS_FILE, instead of the sample) into in-process DynamoDB (dynalite)`,
      );
      if (dataDir) notes.push(`in-process DynamoDB kept on disk in ${dataDir} (LOCAL_DATA_DIR): tables survive a restart`);

      if (!env.IDEMPOTENCY_TABLE?.trim()) {
        env.IDEMPOTENCY_TABLE = await createIdempotencyTable(enrollments.endpoint);
        notes.push(`Idempotency-Key records are kept in the same in-process DynamoDB${dataDir ? '' : ' (lost at stop)'}`);
      }
      if (!env.BATCH_TABLE?.trim()) {
        env.BATCH_TABLE = await createBatchTable(enrollments.endpoint, LOCAL_BATCH_TABLE);
        const batch = await startLocalBatch(env, options.batch);
        closers.push(() => batch.close());
        notes.push(
          dataDir
            ? `batches: table in the same DynamoDB, items and webhooks on an in-process queue with SQS semantics; ${batch.requeued} unfinished items found at start queued again`
            : 'batches: table in the same in-process DynamoDB, items and webhooks on an in-process queue with SQS semantics (lost at stop)',
        );
      }
    } else if (!env.IDEMPOTENCY_TABLE?.trim()) {
      notes.push('ENROLLMENTS_TABLE is set but IDEMPOTENCY_TABLE is not: requests with an Idempotency-Key will answer 500 CONFIGURATION_ERROR');
    }

    return {
      notes,
      ...(devToken ? { devToken } : {}),
      close: async () => {
        for (const close of closers.reverse()) await close();
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}
