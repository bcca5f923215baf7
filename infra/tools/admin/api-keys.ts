import { randomBytes } from 'node:crypto';
import {
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  type APIGatewayClient,
} from '@aws-sdk/client-api-gateway';
import { PLAN_NAMES, type PlanName } from '../../../lib/auth/index.js';

/**
 * Each client's API Gateway API key: the usage-plan key the authorizer hands back as
 * usageIdentifierKey, so the gateway holds the client to its plan's throttle and monthly quota
 * (docs/deployment.md#plans). One key per client, shared by all its tokens; clients never see it.
 */

export interface ClientApiKey {
  id: string;
  value: string;
}

export interface ApiKeyBackend {
  describe: string;
  /** Creates the client's key and attaches it to the plan (the key is deleted again if that fails). */
  create(clientId: string, plan: PlanName): Promise<ClientApiKey>;
  /** Moves a key between plans: a key may sit in only one plan of the stage. */
  changePlan(keyId: string, from: PlanName | undefined, to: PlanName): Promise<void>;
  /** Deletes the key, which also detaches it from its plan. */
  remove(keyId: string): Promise<void>;
}

/** `standard=<id>,high=<id>`, the stack output UsagePlanIds; throws naming what is missing. */
export function parseUsagePlanIds(text: string | undefined): Record<PlanName, string> {
  const hint = 'set USAGE_PLAN_IDS to the stack output UsagePlanIds (standard=<id>,high=<id>)';
  const ids: Partial<Record<PlanName, string>> = {};
  for (const pair of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, id] = pair.split('=').map((p) => p.trim());
    if (!PLAN_NAMES.includes(name as PlanName) || !id || !/^[A-Za-z0-9]+$/.test(id)) throw new Error(`USAGE_PLAN_IDS has a malformed entry "${pair}"; ${hint}`);
    ids[name as PlanName] = id;
  }
  const missing = PLAN_NAMES.filter((name) => !ids[name]);
  if (missing.length) throw new Error(`no usage plan id for ${missing.join(', ')}; ${hint}`);
  return ids as Record<PlanName, string>;
}

export function apiGatewayKeys(client: APIGatewayClient, usagePlanIds: () => Record<PlanName, string>): ApiKeyBackend {
  const attach = (plan: PlanName, keyId: string) =>
    client.send(new CreateUsagePlanKeyCommand({ usagePlanId: usagePlanIds()[plan], keyId, keyType: 'API_KEY' }));
  const detach = (plan: PlanName, keyId: string) => client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: usagePlanIds()[plan], keyId }));
  return {
    describe: 'API Gateway usage plans from USAGE_PLAN_IDS',
    async create(clientId, plan) {
      usagePlanIds(); // fail on a missing plan id before creating anything
      // 40 hex characters: the authorizer passes it on, the gateway requires at least 20.
      const created = await client.send(
        new CreateApiKeyCommand({
          name: `client-${clientId}`,
          description: `Usage-plan key of client ${clientId} (npm run admin -- token create)`,
          customerId: clientId,
          enabled: true,
          value: randomBytes(20).toString('hex'),
        }),
      );
      if (!created.id || !created.value) throw new Error('API Gateway created a key without an id or value');
      try {
        await attach(plan, created.id);
      } catch (error) {
        await client.send(new DeleteApiKeyCommand({ apiKey: created.id })).catch(() => undefined);
        throw error;
      }
      return { id: created.id, value: created.value };
    },
    async changePlan(keyId, from, to) {
      if (from === to) return;
      if (from) await detach(from, keyId);
      try {
        await attach(to, keyId);
      } catch (error) {
        // Put it back where it was, so the client keeps working on its old plan.
        if (from) await attach(from, keyId).catch(() => undefined);
        throw error;
      }
    },
    async remove(keyId) {
      await client.send(new DeleteApiKeyCommand({ apiKey: keyId }));
    },
  };
}
