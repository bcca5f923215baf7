import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SCHEMAS } from '../../lib/validation/schemas.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/** The MCP tool read_insurance_card through the local server, with the SDK's own client (docs/mcp.md#tools). */

let api: LocalApi;
let client: Client;
const image = (file: string) => readFileSync(new URL(`../../infra/dev/sandbox/cards/${file}`, import.meta.url)).toString('base64');

beforeAll(async () => {
  api = await startLocalApi();
  client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/api/mcp`), { requestInit: { headers: { Authorization: `Bearer ${api.token}` } } });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await api?.close();
});

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'read_insurance_card', arguments: args })) as unknown as ToolAnswer;

describe('read_insurance_card', () => {
  it('has the REST request schema as its input schema', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'read_insurance_card')!;
    expect(tool.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(SCHEMAS.card.properties)));
    expect(tool.inputSchema.required).toEqual(SCHEMAS.card.required);
  });

  it('answers the REST answer, with a summary that repeats no name or member id', async () => {
    const args = { front: image('medicare.png'), check: { patientDOB: '11-02-1950', dateOfCoverage: '03-01-2025', providerId: 'PROVIDER-SANDBOX-1' } };
    const answer = await call(args);
    const rest = await api.call('/api/insurance-card/v1', args);
    expect(answer.isError).toBeFalsy();
    // The same answer but for when each check ran.
    const when = { checkedAt: expect.any(String) };
    expect(answer.structuredContent).toEqual({ ...rest.body, eligibility: { ...rest.body.eligibility, ...when } });
    const summary = answer.content[0]!.text;
    expect(summary).toMatch(
      /^Card read: payer "Medicare" \(as printed on the card\), 5 of 5 fields with high confidence; best payer match ".+" \(payerId CMS\)\. Compare the member id with the card before using it\. Eligibility: Active/,
    );
    expect(summary).not.toMatch(/HAROLD|BROOKS|1EG4TE5MK73/i);
  });

  it('an image that is not a card is a tool error with CARD_NOT_READ', async () => {
    const changed = Buffer.from(image('medicare.png'), 'base64');
    changed[changed.length - 20]! ^= 0xff;
    const answer = await call({ front: changed.toString('base64') });
    expect(answer.isError).toBe(true);
    expect(answer.content[0]!.text).toMatch(/^CARD_NOT_READ: /);
  });
});
