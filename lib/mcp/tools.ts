import { serviceError } from '../errors/index.js';
import type { Route, RouteOutcome } from '../http/api-handler.js';
import type { PayerSearchRoute } from '../payers/route.js';
import { PAYER_SEARCH_SCHEMA } from '../payers/search-params.js';
import {
  SCHEMAS,
  validateBody,
  type CobRequest,
  type DiscoveryRequest,
  type EligibilityRequest,
  type MbiRequest,
  type RequestBodies,
  type SchemaName,
} from '../validation/index.js';
import { discoverySummary, mbiSummary } from './coverage-summary.js';
import { cobSummary, eligibilitySummary, payerSearchSummary } from './summary.js';

/**
 * The MCP tools (docs/mcp.md#tools). Each runs the same route function as its REST route, so the
 * answer is the REST answer; input schemas are the REST request schemas (lib/validation/schemas.ts,
 * lib/payers/search-params.ts), so a field added there reaches the tool with no second copy.
 */

export interface ToolContext {
  clientId: string;
  requestId: string;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object' } & Record<string, unknown>;
  run(args: Record<string, unknown>, context: ToolContext): Promise<RouteOutcome>;
  summarize(body: unknown): string;
}

export interface ToolRoutes {
  eligibility: Route<EligibilityRequest>;
  cob: Route<CobRequest>;
  searchPayers: PayerSearchRoute;
  /** POST /api/insurance-discovery/v1 and POST /api/medicare/mbi/v1 (docs/finding-coverage.md); without them the tools answer 404. */
  discovery?: Route<DiscoveryRequest>;
  mbi?: Route<MbiRequest>;
  /** GET /api/eligibility/batch/v1/{batchId} (docs/batch.md#poll); without it every id is unknown. */
  batchStatus?: (clientId: string, batchId: string) => Promise<RouteOutcome>;
}

/** A request schema as a tool's input schema: the same object, without the `$id` it has as a document. */
function inputSchemaOf(name: SchemaName): McpTool['inputSchema'] {
  const { $id: _id, ...schema } = SCHEMAS[name];
  return schema as McpTool['inputSchema'];
}

/**
 * A member id a model sent as a JSON number (docs/mcp.md#member-ids): a whole number JSON carries
 * exactly is taken as its digits; any other number (a fraction, an exponent, past 2^53 where digits
 * were already lost) is refused with the advice to send it as text, in quotes.
 */
function memberIdAsText(args: Record<string, unknown>): { args: Record<string, unknown> } | { refused: RouteOutcome } {
  const value = args.patientMemberId;
  if (typeof value !== 'number') return { args };
  if (Number.isSafeInteger(value) && value >= 0) return { args: { ...args, patientMemberId: String(value) } };
  const refused: RouteOutcome = {
    ok: false,
    error: serviceError('INVALID_REQUEST', {
      message: 'The request body is invalid (1 problem)',
      errors: [{ field: 'patientMemberId', message: 'must be text: send the member id in quotes, exactly as printed on the card ("00123456789")' }],
    }),
  };
  return { refused };
}

/** Validates like the REST route (400 INVALID_REQUEST with every problem), then runs it. */
function bodyTool<N extends 'eligibility' | 'cob' | 'discovery' | 'mbi'>(name: N, route: Route<RequestBodies[N]> | undefined) {
  return async (input: Record<string, unknown>, context: ToolContext): Promise<RouteOutcome> => {
    const read = memberIdAsText(input);
    if ('refused' in read) return read.refused;
    const valid = validateBody(name, read.args);
    if (!valid.ok) return valid;
    if (!route) return { ok: false, error: serviceError('NOT_FOUND', { message: 'This tool is not available here' }) };
    return route({ body: valid.value, ...context });
  };
}

const BATCH_ID_MAX = 100;

export function mcpTools(routes: ToolRoutes): McpTool[] {
  return [
    {
      name: 'search_payers',
      title: 'Search the payer directory',
      description:
        'Find a payer and its payerId by name, payer id or alias (typos are tolerated), optionally only payers that support eligibility or COB checks. Use it before check_eligibility when you know the insurer by name.',
      inputSchema: PAYER_SEARCH_SCHEMA as unknown as McpTool['inputSchema'],
      run: (args) => routes.searchPayers(args),
      summarize: payerSearchSummary,
    },
    {
      name: 'check_eligibility',
      title: 'Check eligibility and benefits',
      description:
        'Real-time eligibility (X12 270/271) for a patient with a payer: coverage status, copay, deductible, coinsurance and out-of-pocket figures in and out of network, per service type; with runCobCheck also other coverage. Dates are MM-DD-YYYY. Set mockRequest to true to use the documented mock patients (no payer is contacted).',
      inputSchema: inputSchemaOf('eligibility'),
      run: bodyTool('eligibility', routes.eligibility),
      summarize: eligibilitySummary,
    },
    {
      name: 'check_cob',
      title: 'Check coordination of benefits',
      description:
        'Coordination of benefits search: whether the patient has other coverage and which plan pays first. Dates are MM-DD-YYYY. Set mockRequest to true to use the documented mock patients.',
      inputSchema: inputSchemaOf('cob'),
      run: bodyTool('cob', routes.cob),
      summarize: cobSummary,
    },
    {
      name: 'discover_insurance',
      title: 'Find unknown insurance coverage',
      description:
        "Insurance discovery: find a patient's coverage from name, date of birth and (better) address and SSN when the payer is unknown. Costs far more than a check and is capped per day. Answers COMPLETE with each coverage found and its eligibility answer, or PENDING with a discoveryId to poll at GET /api/insurance-discovery/v1/{discoveryId}. Dates are MM-DD-YYYY.",
      inputSchema: inputSchemaOf('discovery'),
      run: bodyTool('discovery', routes.discovery),
      summarize: discoverySummary,
    },
    {
      name: 'lookup_mbi',
      title: 'Look up a Medicare number (MBI)',
      description:
        "Find a Medicare patient's Medicare Beneficiary Identifier and their Original Medicare eligibility, by SSN or, without one, by the state they live in (one of patientSSN and patientState is required). Dates are MM-DD-YYYY.",
      inputSchema: inputSchemaOf('mbi'),
      run: bodyTool('mbi', routes.mbi),
      summarize: mbiSummary,
    },
    {
      name: 'get_batch_status',
      title: 'Get a batch eligibility run',
      description: 'The status and counts of a batch eligibility run submitted with POST /api/eligibility/batch/v1, by its batchId.',
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['batchId'],
        properties: { batchId: { type: 'string', minLength: 1, maxLength: BATCH_ID_MAX, description: 'The batchId the batch submission answered.' } },
      },
      // The REST status route's answer; another client's id is unknown, exactly as REST answers it.
      run: async (args, context) => {
        const batchId = args.batchId;
        if (typeof batchId !== 'string' || batchId.trim() === '' || batchId.length > BATCH_ID_MAX) {
          return {
            ok: false,
            error: serviceError('INVALID_REQUEST', { errors: [{ field: 'batchId', message: `is required: text of 1 to ${BATCH_ID_MAX} characters` }] }),
          };
        }
        if (routes.batchStatus) return routes.batchStatus(context.clientId, batchId);
        return { ok: false, error: serviceError('NOT_FOUND', { message: 'No batch with this id' }) };
      },
      summarize: batchStatusSummary,
    },
  ];
}

/** "IN_PROGRESS: 120 of 2000 items finished (3 failed); 117 active, 0 inactive, 0 unknown." */
function batchStatusSummary(body: unknown): string {
  const batch = body as { status?: string; totalCount?: number; counts?: Record<string, number>; outcomes?: Record<string, number> };
  if (!batch.counts || !batch.outcomes) return '';
  const { completed = 0, failed = 0, cancelled = 0 } = batch.counts;
  const { active = 0, inactive = 0, unknown = 0 } = batch.outcomes;
  return `${batch.status}: ${completed + failed + cancelled} of ${batch.totalCount} items finished (${failed} failed, ${cancelled} cancelled); ${active} active, ${inactive} inactive, ${unknown} unknown.`;
}
