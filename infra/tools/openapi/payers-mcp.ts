import { PAYER_ID_SCHEMA, PAYER_SEARCH_SCHEMA } from '../../../lib/payers/index.js';
import { sandboxPayerSearch } from '../../dev/sandbox/payers.js';

/**
 * The OpenAPI parts of the payer directory (GET /api/payers, GET /api/payers/{payerId}) and the MCP
 * endpoint (POST /api/mcp), for document.ts: the search parameters come from the schema the route
 * reads (lib/payers/search-params.ts), examples from the sandbox directory.
 */

type Json = Record<string, unknown>;

const searchParameters = Object.entries(PAYER_SEARCH_SCHEMA.properties).map(([name, schema]) => {
  const { description, ...rest } = schema as Json;
  return { name, in: 'query', required: false, description, schema: rest };
});

function sandboxPage(query: string, pageSize = 3): Json {
  const { body } = sandboxPayerSearch(new URLSearchParams({ query, pageSize: String(pageSize) })) as { body: { items: { payer: Json }[] } };
  return body;
}

/** A directory answer as the API gives it (the sandbox's Stedi records, mapped as the route maps them). */
export type PayerExamples = (query: string, pageSize?: number) => Json;

export const PAYER_SUMMARIES = {
  payers: {
    operationId: 'searchPayers',
    tag: 'Payers',
    summary: 'Search the payer directory',
    description:
      "Finds payers and their `payerId` by name, payer id or alias (typo-tolerant), from Stedi's Payers API, cached for an hour. `transaction` keeps only payers that support eligibility or COB checks. See docs/api.md#payer-directory.",
  },
  lookup: {
    operationId: 'getPayer',
    tag: 'Payers',
    summary: 'One payer by id',
    description: 'The payer one of whose ids (primary payer id, alias or Stedi id) is `payerId`; 404 NOT_FOUND when none is.',
  },
  mcp: {
    operationId: 'mcp',
    tag: 'MCP',
    summary: 'Model Context Protocol endpoint',
    description:
      'Streamable HTTP in stateless mode with JSON answers: send JSON-RPC requests (`initialize`, `tools/list`, `tools/call`) with `Accept: application/json, text/event-stream`. Tools: search_payers, check_eligibility, check_cob, get_batch_status. Tool errors carry the REST error code and message. See docs/mcp.md.',
  },
} as const;

interface Builders {
  ok: (schema: string, description: string, examples?: Json) => Json;
  errors: (codes: 'payers' | 'mcp') => Json;
  toPage: (stedi: Json) => Json;
}

/** The operations of the three routes, keyed as document.ts's loop looks them up. */
export function payerAndMcpOperations({ ok, errors, toPage }: Builders): { payers: Json; lookup: Json; mcp: Json } {
  const aetna = toPage(sandboxPage('Aetan', 3));
  const one = (toPage(sandboxPage('87726', 1)).payers as Json[])[0];
  return {
    payers: {
      parameters: [...searchParameters, { $ref: '#/components/parameters/XRequestId' }],
      responses: {
        '200': ok('PayerPage', 'Matching payers, best first.', { typo: { summary: 'q=Aetan (a typo) finds Aetna', value: aetna } }),
        ...errors('payers'),
      },
    },
    lookup: {
      parameters: [{ $ref: '#/components/parameters/XRequestId' }],
      responses: { '200': ok('Payer', 'The payer.', { uhc: { summary: 'UnitedHealthcare', value: one } }), ...errors('payers') },
    },
    mcp: {
      parameters: [{ $ref: '#/components/parameters/XRequestId' }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['jsonrpc', 'method'],
              properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
            },
            examples: {
              listTools: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
              searchPayers: {
                summary: 'Call search_payers',
                value: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_payers', arguments: { q: 'Aetna' } } },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description:
            'The JSON-RPC answer. A tool result has `structuredContent` (the REST answer, or for a tool error the REST error body with `status`) and a plain-English text summary.',
          headers: { 'x-request-id': { $ref: '#/components/headers/XRequestId' } },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['jsonrpc'],
                properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, result: { type: 'object' }, error: { type: 'object' } },
              },
            },
          },
        },
        '202': { description: 'A JSON-RPC notification was accepted (no body).' },
        '406': { description: 'Accept does not list both application/json and text/event-stream (a JSON-RPC error body from the MCP SDK).' },
        ...errors('mcp'),
      },
    },
  };
}

/** Path parameters, declared on the path item so every operation of the path (the preflight too) has them. */
export const PATH_PARAMETERS: Record<string, Json[]> = {
  '/api/payers/{payerId}': [
    { name: 'payerId', in: 'path', required: true, description: 'A primary payer id, alias or Stedi id.', schema: PAYER_ID_SCHEMA, example: '87726' },
  ],
};

export const PAYER_TAGS = [
  { name: 'Payers', description: 'The payer directory: find the payerId to send.' },
  { name: 'MCP', description: 'The Model Context Protocol endpoint for AI agents (docs/mcp.md).' },
];
