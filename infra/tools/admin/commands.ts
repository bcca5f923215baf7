import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  AUTHORIZER_CACHE_SECONDS,
  type ClientToken,
  PLAN_NAMES,
  type PlanName,
  REVOCATION_SECONDS,
  sha256Hex,
  WEBHOOK_SECRET_OVERLAP_SECONDS,
} from '../../../lib/auth/index.js';
import { TOKEN_STORE_CACHE_SECONDS } from '../../../lib/config/index.js';
import { type Enrollment, validateEnrollment } from '../../../lib/enrollment/index.js';
import { type FieldError, ServiceFailure } from '../../../lib/errors/index.js';
import type { ApiKeyBackend, ClientApiKey } from './api-keys.js';
import type { EnrollmentBackend, TokenBackend } from './backends.js';

/**
 * The admin commands, independent of where data lives (backends are injected) and of the
 * process (output streams and exit code are returned), so tests run them against loopback fakes.
 */

export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

export interface AdminBackends {
  tokens(): TokenBackend;
  enrollments(): EnrollmentBackend;
  /** The clients' usage-plan keys in AWS; undefined for local files (npm start uses RATE_LIMITS instead). */
  apiKeys?(): ApiKeyBackend | undefined;
  /** Locally, the clients of the `API_TOKENS` list `npm start` accepts besides the file (none in AWS). */
  listedTokens?(): ClientToken[];
}

/** Client ids end up in logs and in the local `clientId=token` list, so keep them plain. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,80}$/;
/** `--digest` needs at least 8 hex characters; `token create` and `token list` show 12. */
const DIGEST_PREFIX = /^[0-9a-f]{8,64}$/;
const DIGEST_SHOWN = 12;

export const USAGE = `usage: npm run admin -- <command>
  token create --client <id> [--plan standard|high]
                                        issue a new bearer token (printed once; only its SHA-256 is stored); in AWS the
                                        client's usage-plan key is created on its first token and moved when --plan changes
                                        (default: the client's current plan, else standard)
  token revoke --client <id> [--digest <first 8 or more hex characters of the digest>]
                                        remove the client's tokens (or only the one whose digest starts with the prefix,
                                        as token list shows it); with its last token the client's usage-plan key is deleted
  token list                            one line per token: client id, plan ("-" when none) and the first
                                        ${DIGEST_SHOWN} characters of its digest (what --digest takes), tab-separated
  webhook-secret create --client <id>   make the client's Standard Webhooks signing secret (whsec_…, printed once)
  webhook-secret rotate --client <id>   replace it; the old one keeps signing beside the new one for 24 h
  provider enroll --provider-id <id> --client <id> --npi <npi> (--org <name> | --first <name> --last <name>) [--payer <id> ...]
  provider disable --provider-id <id>   mark an enrollment inactive
  provider show --provider-id <id>      print an enrollment
Backends: API_TOKENS_SECRET_ARN / ENROLLMENTS_TABLE select AWS (with USAGE_PLAN_IDS, the stack output UsagePlanIds);
otherwise .local/tokens.json and .local/enrollments.json (or ENROLLMENTS_FILE).`;

class UsageError extends Error {}
class CommandError extends Error {}

type Flags = {
  client?: string;
  plan?: string;
  digest?: string;
  'provider-id'?: string;
  npi?: string;
  org?: string;
  first?: string;
  last?: string;
  payer?: string[];
};

const OPTIONS = {
  client: { type: 'string' },
  plan: { type: 'string' },
  digest: { type: 'string' },
  'provider-id': { type: 'string' },
  npi: { type: 'string' },
  org: { type: 'string' },
  first: { type: 'string' },
  last: { type: 'string' },
  payer: { type: 'string', multiple: true },
} as const;

/** Which flags each command takes; anything else is a usage error rather than silently ignored. */
const COMMANDS: Record<string, { flags: (keyof Flags)[]; run: (flags: Flags, backends: AdminBackends, io: AdminIo) => Promise<void> }> = {
  'token create': { flags: ['client', 'plan'], run: tokenCreate },
  'token revoke': { flags: ['client', 'digest'], run: tokenRevoke },
  'token list': { flags: [], run: tokenList },
  'webhook-secret create': { flags: ['client'], run: (flags, backends, io) => webhookSecret(flags, backends, io, 'create') },
  'webhook-secret rotate': { flags: ['client'], run: (flags, backends, io) => webhookSecret(flags, backends, io, 'rotate') },
  'provider enroll': { flags: ['provider-id', 'client', 'npi', 'org', 'first', 'last', 'payer'], run: providerEnroll },
  'provider disable': { flags: ['provider-id'], run: providerDisable },
  'provider show': { flags: ['provider-id'], run: providerShow },
};

export async function runAdmin(argv: string[], backends: AdminBackends, io: AdminIo): Promise<number> {
  // `--help`, `-h` or `help` anywhere: the usage on stdout, success.
  if (argv.some((arg) => arg === '--help' || arg === '-h') || argv[0] === 'help') {
    io.out(USAGE);
    return EXIT.OK;
  }
  try {
    const { values, positionals } = parseCommandLine(argv);
    const name = positionals.join(' ');
    const command = COMMANDS[name];
    if (!command) throw new UsageError(positionals.length ? `unknown command "${name}"` : 'no command given');
    const extra = Object.keys(values).filter((flag) => !command.flags.includes(flag as keyof Flags));
    if (extra.length) throw new UsageError(`${name} does not take ${extra.map((f) => `--${f}`).join(', ')}`);
    await command.run(values as Flags, backends, io);
    return EXIT.OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}`);
      io.err(USAGE);
      return EXIT.USAGE;
    }
    if (error instanceof ServiceFailure && 'code' in error.failure) {
      io.err('error: the enrollment record is invalid:');
      for (const e of error.failure.errors ?? []) io.err(`  ${flagName(e)}: ${e.message}`);
      return EXIT.USAGE;
    }
    if (error instanceof CommandError) {
      io.err(`error: ${error.message}`);
      return EXIT.FAILED;
    }
    // Backend failures (network, permissions, a malformed secret): the SDK's name and message, never data.
    const { name, message } = error as Error;
    io.err(`error: ${name ?? 'Error'}: ${message}`);
    return EXIT.FAILED;
  }
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const required = (flags: Flags, name: keyof Flags): string => {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
};

const clientIdOf = (flags: Flags): string => {
  const clientId = required(flags, 'client');
  if (!CLIENT_ID.test(clientId)) throw new UsageError('--client must be 1-80 letters, digits, ".", "_" or "-"');
  return clientId;
};

/** Maps record fields back to the flags that set them, so messages point at what to fix. */
const FIELD_FLAGS: Record<string, string> = {
  providerId: '--provider-id',
  clientId: '--client',
  npi: '--npi',
  organizationName: '--org',
  firstName: '--first',
  lastName: '--last',
  payerIds: '--payer',
};
const flagName = (e: FieldError) => FIELD_FLAGS[e.field.replace(/\[\d+\]$/, '')] ?? e.field;

const planOf = (flags: Flags): PlanName | undefined => {
  if (flags.plan === undefined) return undefined;
  if (!PLAN_NAMES.includes(flags.plan as PlanName)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return flags.plan as PlanName;
};

/** docs/deployment.md#revocation */
const REVOCATION_NOTE =
  `In AWS it stops working within ${REVOCATION_SECONDS / 60} minutes ` +
  `(token store cached ${TOKEN_STORE_CACHE_SECONDS} s + authorizer answers cached ${AUTHORIZER_CACHE_SECONDS} s).`;

async function tokenCreate(flags: Flags, backends: AdminBackends, io: AdminIo) {
  const clientId = clientIdOf(flags);
  const requested = planOf(flags);
  const tokens = backends.tokens();
  const clients = await tokens.read();
  const own = clients.filter((c) => c.clientId === clientId);
  const current = own.find((c) => c.plan)?.plan as PlanName | undefined;
  const plan = requested ?? current ?? 'standard';

  // One usage-plan key per client, shared by all its tokens: created with the first token (or the
  // first since keys existed), moved when the plan changes. Every entry of the client carries it.
  const keys = backends.apiKeys?.();
  const existing = own.find((c) => c.apiKeyId && c.usageIdentifierKey);
  let key: ClientApiKey | undefined = existing ? { id: existing.apiKeyId!, value: existing.usageIdentifierKey! } : undefined;
  let created = false;
  if (keys && key) await keys.changePlan(key.id, current, plan);
  if (keys && !key) {
    key = await keys.create(clientId, plan);
    created = true;
  }
  const fields: Partial<ClientToken> = { plan, ...(key ? { apiKeyId: key.id, usageIdentifierKey: key.value } : {}) };

  // 32 random bytes, base64url: 43 printable characters, well inside the authorizer's token shape.
  const token = randomBytes(32).toString('base64url');
  const webhookSecret = own.find((c) => c.webhookSecret)?.webhookSecret;
  const entry: ClientToken = { clientId, tokenSha256: sha256Hex(token), ...fields, ...(webhookSecret ? { webhookSecret } : {}) };
  try {
    await tokens.write([...clients.map((c) => (c.clientId === clientId ? { ...c, ...fields } : c)), entry]);
  } catch (error) {
    // Leave API Gateway as the token store still describes it.
    if (keys && key && created) await keys.remove(key.id).catch(() => undefined);
    if (keys && key && !created) await keys.changePlan(key.id, plan, current ?? plan).catch(() => undefined);
    throw error;
  }
  const held = own.length + 1;
  io.err(`Created a token for client "${clientId}" on the ${plan} plan in ${tokens.describe} (digest ${entry.tokenSha256.slice(0, DIGEST_SHOWN)}).`);
  if (keys && created) io.err(`Created the client's usage-plan key ${key!.id} in ${keys.describe}.`);
  if (keys && !created && current !== plan) io.err(`Moved the client's usage-plan key ${key!.id} from the ${current ?? 'unknown'} plan to the ${plan} plan.`);
  if (!keys) io.err('Local token store: plans are not enforced here (npm start limits clients with RATE_LIMITS).');
  io.err('It is shown once below and cannot be recovered; send it to the client over a secure channel.');
  if (held > 1) io.err(`The client now holds ${held} tokens; revoke the old one with: token revoke --client ${clientId} --digest <prefix>`);
  io.out(token);
}

async function tokenRevoke(flags: Flags, backends: AdminBackends, io: AdminIo) {
  const clientId = clientIdOf(flags);
  const digest = flags.digest?.toLowerCase();
  if (digest !== undefined && !DIGEST_PREFIX.test(digest))
    throw new UsageError("--digest needs at least 8 hex characters of the token's digest (token list shows the first 12)");
  const tokens = backends.tokens();
  const clients = await tokens.read();
  const revoked = (c: ClientToken) => c.clientId === clientId && (digest === undefined || c.tokenSha256.startsWith(digest));
  const count = clients.filter(revoked).length;
  if (count === 0) throw new CommandError(`no token of client "${clientId}"${digest ? ` with digest ${digest}` : ''} in ${tokens.describe}`);
  const remaining = clients.filter((c) => !revoked(c));
  await tokens.write(remaining);
  io.err(`Revoked ${count} token(s) of client "${clientId}". ${REVOCATION_NOTE}`);

  // With its last token the client's usage-plan key goes too (deleting it detaches it from its plan).
  const keyIds = new Set(clients.filter((c) => c.clientId === clientId && c.apiKeyId).map((c) => c.apiKeyId!));
  const keys = keyIds.size && !remaining.some((c) => c.clientId === clientId) ? backends.apiKeys?.() : undefined;
  for (const keyId of keys ? keyIds : []) {
    try {
      await keys!.remove(keyId);
      io.err(`Deleted the client's usage-plan key ${keyId}.`);
    } catch (error) {
      const { name, message } = error as Error;
      throw new CommandError(`the tokens are revoked, but usage-plan key ${keyId} could not be deleted (${name}: ${message}); delete it in API Gateway`);
    }
  }
}

/** One line per token, by client id: which token to revoke is told by its digest prefix, never by the token. */
async function tokenList(_flags: Flags, backends: AdminBackends, io: AdminIo) {
  const clients = await backends.tokens().read();
  const plans = new Map<string, string | undefined>();
  for (const c of clients) plans.set(c.clientId, plans.get(c.clientId) ?? c.plan);
  const sorted = [...clients].sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
  for (const c of sorted) io.out([c.clientId, plans.get(c.clientId) ?? '-', c.tokenSha256.slice(0, DIGEST_SHOWN)].join('\t'));
}

/**
 * The client's batch webhook signing secret (docs/batch.md#webhook-secrets): `whsec_` and 32 random
 * bytes in base64, as Standard Webhooks libraries expect; kept on each of the client's token entries
 * in the token store (the webhook sender reads it there), printed once.
 */
async function webhookSecret(flags: Flags, backends: AdminBackends, io: AdminIo, mode: 'create' | 'rotate') {
  const clientId = clientIdOf(flags);
  const tokens = backends.tokens();
  const clients = await tokens.read();
  const stored = clients.filter((c) => c.clientId === clientId);
  // A local client whose token comes from API_TOKENS: the file keeps its secret beside a copy of the token's digest.
  const listed = stored.length === 0 ? (backends.listedTokens?.() ?? []).filter((c) => c.clientId === clientId) : [];
  const own = [...stored, ...listed];
  if (own.length === 0) throw new CommandError(`client "${clientId}" holds no token in ${tokens.describe}; create one first (token create)`);
  const existing = own.some((c) => c.webhookSecret);
  if (mode === 'create' && existing) throw new CommandError(`client "${clientId}" already has a webhook secret; use webhook-secret rotate to replace it`);
  if (mode === 'rotate' && !existing) throw new CommandError(`client "${clientId}" has no webhook secret yet; use webhook-secret create`);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const previous = own.find((c) => c.webhookSecret)?.webhookSecret;
  // While the client moves to the new secret, the old one signs beside it (WEBHOOK_SECRET_OVERLAP_SECONDS).
  const rotation = mode === 'rotate' && previous ? { previousWebhookSecret: previous, webhookSecretRotatedAt: new Date().toISOString() } : {};
  await tokens.write([...clients, ...listed].map((c) => (c.clientId === clientId ? { ...c, webhookSecret: secret, ...rotation } : c)));
  if (listed.length > 0) io.err(`Client "${clientId}" has its token from API_TOKENS; ${tokens.describe} now holds a copy of its digest with the secret.`);
  io.err(`${mode === 'create' ? 'Created' : 'Rotated'} the webhook signing secret of client "${clientId}" in ${tokens.describe}.`);
  if (mode === 'rotate')
    io.err(`The old secret keeps signing beside it for ${WEBHOOK_SECRET_OVERLAP_SECONDS / 3600} h: webhooks carry both signatures until then.`);
  io.err('It is shown once below; the client verifies webhook-signature with it (docs/batch.md#verify-the-webhook).');
  io.out(secret);
}

async function providerEnroll(flags: Flags, backends: AdminBackends, io: AdminIo) {
  const record: Record<string, unknown> = {
    providerId: required(flags, 'provider-id'),
    clientId: clientIdOf(flags),
    npi: required(flags, 'npi'),
    status: 'active',
  };
  if (flags.org !== undefined) record.organizationName = flags.org;
  if (flags.first !== undefined) record.firstName = flags.first;
  if (flags.last !== undefined) record.lastName = flags.last;
  if (flags.payer !== undefined) record.payerIds = flags.payer;
  const checked = validateEnrollment(record);
  if (!checked.ok) throw new ServiceFailure(checked.error);

  const { store, describe } = backends.enrollments();
  const existing = await store.get(checked.value.providerId);
  // providerId is the table key: re-enrolling another client's provider would hand it over.
  if (existing && existing.clientId !== checked.value.clientId) {
    throw new CommandError(`provider "${checked.value.providerId}" is enrolled by another client; disable it there first`);
  }
  await store.put(checked.value);
  io.err(`${existing ? 'Updated' : 'Enrolled'} provider "${checked.value.providerId}" for client "${checked.value.clientId}" in ${describe}.`);
}

async function found(backends: AdminBackends, providerId: string): Promise<{ record: Enrollment; backend: EnrollmentBackend }> {
  const backend = backends.enrollments();
  const record = await backend.store.get(providerId);
  if (!record) throw new CommandError(`provider "${providerId}" is not enrolled in ${backend.describe}`);
  return { record, backend };
}

async function providerDisable(flags: Flags, backends: AdminBackends, io: AdminIo) {
  const { record, backend } = await found(backends, required(flags, 'provider-id'));
  await backend.store.put({ ...record, status: 'inactive' });
  io.err(`Disabled provider "${record.providerId}" in ${backend.describe}.`);
}

async function providerShow(flags: Flags, backends: AdminBackends, io: AdminIo) {
  const { record } = await found(backends, required(flags, 'provider-id'));
  io.out(JSON.stringify(record, null, 2));
}
