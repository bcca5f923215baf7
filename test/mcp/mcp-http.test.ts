import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SCHEMAS } from '../../lib/validation/schemas.js';
import { MOCK_SET_1, SANDBOX_GARCIA } from '../support/events.js';
import { startLocalApi, type LocalApi } from '../support/local-api.js';

/**
 * POST /api/mcp through the local server, spoken to by the MCP SDK's own client over HTTP: the tools
 * answer exactly what the REST routes answer, and REST errors arrive as tool errors with the code.
 */

let api: LocalApi;
let client: Client;

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
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as unknown as ToolAnswer;

describe('MCP over HTTP', () => {
  it('lists the six tools, whose input schemas are the REST request schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search_payers', 'check_eligibility', 'check_cob', 'discover_insurance', 'lookup_mbi', 'get_batch_status']);
    expect(tools.find((tool) => tool.name === 'discover_insurance')!.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(SCHEMAS.discovery.properties)));
    expect(tools.find((tool) => tool.name === 'lookup_mbi')!.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(SCHEMAS.mbi.properties)));
    const eligibility = tools.find((tool) => tool.name === 'check_eligibility')!;
    expect(eligibility.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(SCHEMAS.eligibility.properties)));
    expect(eligibility.inputSchema.required).toEqual(SCHEMAS.eligibility.required);
    expect(tools.find((tool) => tool.name === 'check_cob')!.inputSchema.properties).toEqual(JSON.parse(JSON.stringify(SCHEMAS.cob.properties)));
    expect(Object.keys(tools.find((tool) => tool.name === 'search_payers')!.inputSchema.properties ?? {})).toEqual([
      'q',
      'transaction',
      'pageSize',
      'pageToken',
    ]);
  });

  it('discover_insurance and lookup_mbi answer what the REST routes answer, with summaries that quote the payer and repeat no patient data', async () => {
    const found = await call('discover_insurance', {
      patientFirstName: 'Grace',
      patientLastName: 'Twofold',
      patientDOB: '02-02-1988',
      dateOfService: '03-01-2025',
      providerId: 'PROVIDER-SANDBOX-1',
    });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toMatchObject({ status: 'COMPLETE', coverages: [{ payerId: '62308' }, { payerId: '61101' }] });
    expect(found.content[0]!.text).toBe(
      'COMPLETE: 2 coverages found. 1. "Cigna" (as the payer wrote it), payerId 62308: Active. 2. "Humana" (as the payer wrote it), payerId 61101: Inactive.',
    );
    const mbi = await call('lookup_mbi', {
      patientFirstName: 'Walter',
      patientLastName: 'Medi',
      patientDOB: '05-05-1950',
      patientSSN: '123456789',
      dateOfCoverage: '03-01-2025',
      providerId: 'PROVIDER-SANDBOX-1',
    });
    expect(mbi.structuredContent).toMatchObject({ mbi: '1EG4TE5MK74', eligibility: { coverageStatus: 'Active' } });
    expect(mbi.content[0]!.text).toMatch(/^Medicare number found \(see mbi in the answer\)\. Active;/);
    expect(mbi.content[0]!.text).not.toContain('1EG4TE5MK74');
    const neither = await call('lookup_mbi', {
      patientFirstName: 'Walter',
      patientLastName: 'Medi',
      patientDOB: '05-05-1950',
      dateOfCoverage: '03-01-2025',
      providerId: 'PROVIDER-SANDBOX-1',
    });
    expect(neither.isError).toBe(true);
    expect(neither.content[0]!.text).toContain('INVALID_REQUEST');
  });

  it('check_eligibility in mock mode answers the REST answer as structured content, with a summary', async () => {
    const { mockRequest: _mock, ...fields } = MOCK_SET_1;
    const answer = await call('check_eligibility', { ...fields, mockRequest: true });
    const rest = await api.call('/api/eligibility/v1', MOCK_SET_1);
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toEqual(rest.body);
    expect(answer.content[0]!.text).toBe(
      'Mock answer; in network: $20.00 copay, $500.00 deductible with $200.00 remaining, 10% coinsurance, $2,000.00 out-of-pocket maximum; out of network: $40.00 copay, $1,000.00 deductible with $800.00 remaining, 30% coinsurance, $4,000.00 out-of-pocket maximum.',
    );
  });

  it('check_eligibility runs a real sandbox check like the REST route', async () => {
    const answer = await call('check_eligibility', SANDBOX_GARCIA);
    expect(answer.isError).toBeFalsy();
    const rest = await api.call('/api/eligibility/v1', SANDBOX_GARCIA);
    const { checkedAt: _a, ...fromTool } = answer.structuredContent as Record<string, unknown>;
    const { checkedAt: _b, ...fromRest } = rest.body as Record<string, unknown>;
    expect(fromTool).toEqual(fromRest);
    expect(answer.content[0]!.text).toMatch(/^Active; in network: /);
  });

  it('check_cob in mock mode answers the REST answer', async () => {
    const body = {
      patientFirstName: 'Jane',
      patientLastName: 'Smith',
      dateOfCoverage: '02-02-2025',
      payerId: 'PAYER002',
      providerId: 'PROVIDER002',
      mockRequest: true,
    };
    const answer = await call('check_cob', body);
    const rest = await api.call('/api/eligibility/cob/v1', body);
    expect(answer.structuredContent).toEqual(rest.body);
    expect(answer.content[0]!.text).toContain('COB CobInstanceExistsPrimacyDetermined');
  });

  it('search_payers is typo-tolerant and answers GET /api/payers', async () => {
    const answer = await call('search_payers', { q: 'Aetan', pageSize: 3 });
    const rest = await api.call('/api/payers?q=Aetan&pageSize=3', undefined, { method: 'GET' });
    expect(answer.structuredContent).toEqual(rest.body);
    expect((answer.structuredContent!.payers as { payerId: string }[])[0]!.payerId).toBe('60054');
    expect(answer.content[0]!.text).toMatch(/^3 payers found \(names as the directory lists them\): "Aetna" \(payerId 60054, eligibility SUPPORTED\)/);
  });

  it('turns a validation failure into a tool error with the REST code, message and fields', async () => {
    const { mockRequest: _mock, ...fields } = MOCK_SET_1;
    const answer = await call('check_eligibility', { ...fields, patientDOB: '02-30-1980', runCOBCheck: true });
    const rest = await api.call('/api/eligibility/v1', { ...fields, patientDOB: '02-30-1980', runCOBCheck: true });
    expect(answer.isError).toBe(true);
    const { requestId: _r1, status, ...toolError } = answer.structuredContent!;
    const { requestId: _r2, ...restError } = rest.body;
    expect(toolError).toEqual(restError);
    expect(status).toBe(400);
    expect(answer.content[0]!.text).toBe(
      'INVALID_REQUEST: The request body is invalid (2 problems) (runCOBCheck is not an allowed field; patientDOB must be a real calendar date in the form MM-DD-YYYY, not in the future)',
    );
  });

  it('keeps the exact mock error bodies as tool errors', async () => {
    const answer = await call('check_eligibility', {
      patientFirstName: 'Emily',
      patientLastName: 'Davis',
      patientDOB: '04-04-1990',
      patientMemberId: 'MBR4004004',
      dateOfCoverage: '04-01-2025',
      payerId: 'PAYER004',
      providerId: 'PROVIDER004',
      mockRequest: true,
    });
    expect(answer).toMatchObject({ isError: true, structuredContent: { message: 'Mock: Error retrieving eligibility data.', status: 502 } });
    expect(answer.content[0]!.text).toBe('Mock: Error retrieving eligibility data.');
  });

  it('refuses a payer the directory lists as not supporting eligibility, before any charge', async () => {
    const answer = await call('check_eligibility', { ...SANDBOX_GARCIA, payerId: '54097' });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({ code: 'PAYER_NOT_SUPPORTED', status: 422 });
    expect(answer.content[0]!.text).toMatch(/^PAYER_NOT_SUPPORTED: Delta Dental of South Dakota \(payer id 54097\)/);
  });

  it("carries the payer's AAA reasons in the text the model reads, as the REST body carries them", async () => {
    // The sandbox HMO rejects a date outside the plan year with AAA 62 (docs/api.md#sandboxes).
    const chen = {
      patientFirstName: 'David',
      patientLastName: 'Chen',
      patientDOB: '09-30-1978',
      patientMemberId: 'HMO200002',
      dateOfCoverage: '06-01-2026',
      payerId: 'SBXHMO',
      providerId: 'PROVIDER-SANDBOX-1',
    };
    const answer = await call('check_eligibility', chen);
    const rest = await api.call('/api/eligibility/v1', chen);
    expect(rest.body.code).toBe('PAYER_REJECTED');
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent!.rejections).toEqual(rest.body.rejections);
    const [rejection] = rest.body.rejections as { code: string; description: string; followUpAction: string }[];
    expect(answer.content[0]!.text).toBe(
      `PAYER_REJECTED: The payer rejected the request (AAA 62 ${rejection!.description} (follow-up ${rejection!.followUpAction}))`,
    );
    expect(rejection!.code).toBe('62');
  });

  it('takes a member id sent as a JSON number as its digits, and asks for text in quotes when a number cannot carry it', async () => {
    const asText = await call('check_eligibility', MOCK_SET_1);
    const asNumber = await call('check_eligibility', { ...MOCK_SET_1, patientMemberId: Number(MOCK_SET_1.patientMemberId) });
    expect(asNumber.isError).toBeFalsy();
    expect(asNumber.structuredContent).toEqual(asText.structuredContent);
    const lossy = await call('check_eligibility', { ...MOCK_SET_1, patientMemberId: 2 ** 64 });
    expect(lossy.isError).toBe(true);
    expect(lossy.content[0]!.text).toMatch(/patientMemberId must be text: send the member id in quotes/);
  });

  it('get_batch_status answers that no such batch exists', async () => {
    const answer = await call('get_batch_status', { batchId: 'b-123' });
    expect(answer).toMatchObject({ isError: true, structuredContent: { code: 'NOT_FOUND', status: 404 } });
  });

  it('get_batch_status answers a batch exactly as the REST status route does, with a summary', async () => {
    const submitted = await api.call('/api/eligibility/batch/v1', { items: [MOCK_SET_1] });
    expect(submitted.status).toBe(202);
    let rest: { status: number; body: any };
    do rest = await api.call(`/api/eligibility/batch/v1/${submitted.body.batchId}`, undefined, { method: 'GET' });
    while (!rest.body.completedAt);
    const answer = await call('get_batch_status', { batchId: submitted.body.batchId });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toEqual(rest.body);
    expect((answer.content as { text: string }[])[0]!.text).toContain('COMPLETED: 1 of 1 items finished (0 failed, 0 cancelled)');
  });
});

describe('POST /api/mcp at the HTTP level', () => {
  const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const accept = { accept: 'application/json, text/event-stream' };

  it('needs the bearer token like every route', async () => {
    const missing = await api.call('/api/mcp', rpc, { token: null, headers: accept });
    expect([missing.status, missing.body]).toEqual([401, { message: 'Unauthorized' }]);
    const wrong = await api.call('/api/mcp', rpc, { token: 'nope', headers: accept });
    expect([wrong.status, wrong.body]).toEqual([403, { message: 'Forbidden' }]);
  });

  it('answers a 401 with WWW-Authenticate: Bearer (RFC 6750), so an MCP client knows to send its token', async () => {
    const missing = await api.call('/api/mcp', rpc, { token: null, headers: accept });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const answer = await api.call('/api/mcp', undefined, { method: 'GET' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers JSON (no session id, no event stream) with the request id and no-store', async () => {
    const answer = await api.call('/api/mcp', rpc, { headers: { ...accept, 'x-request-id': 'mcp-req-1' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.headers.get('x-request-id')).toBe('mcp-req-1');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body.result.tools).toHaveLength(6);
  });

  it("gives the API's own 415 and 400 bodies for a non-JSON request", async () => {
    const text = await api.call('/api/mcp', undefined, { contentType: 'text/plain', rawBody: 'hello', headers: accept });
    expect([text.status, text.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const broken = await api.call('/api/mcp', undefined, { rawBody: '{"jsonrpc":', headers: accept });
    expect([broken.status, broken.body.code]).toEqual([400, 'INVALID_JSON']);
  });
});
