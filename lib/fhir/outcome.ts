import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { ErrorCode, FieldError } from '../errors/index.js';
import type { HttpResponse } from '../http/index.js';
import { fieldIssueType, ISSUE_TYPES, SYSTEMS, UNCODED_ISSUE_TYPE } from './codes.js';

/**
 * Our own errors in FHIR's terms (docs/fhir.md#errors): the error body every route answers
 * (`{message, code, requestId, errors?}`, or an exact `{message}` of docs/api.md#errors) becomes an OperationOutcome with
 * the same HTTP status and headers. Field problems become one issue each, located by a FHIRPath-like
 * expression; any other error is one issue carrying our code in `details`.
 */

export const FHIR_CONTENT_TYPE = 'application/fhir+json';

/** The route takes FHIR's media type as well as plain JSON; the shared 415 message names only the latter. */
const MEDIA_TYPE_MESSAGE = 'Content-Type must be application/fhir+json (or application/json)';

interface ErrorBody {
  message: string;
  code?: string;
  errors?: FieldError[];
  errorsTruncated?: boolean;
}

const isErrorBody = (value: unknown): value is ErrorBody => typeof value === 'object' && value !== null && typeof (value as ErrorBody).message === 'string';

/** The roots a `$submit` body may have (docs/fhir.md#the-request): a field under one is a FHIR element already. */
const ROOTS = /^(Bundle|CoverageEligibilityRequest|Parameters)(\.|$)/;

/** Where a problem is: the route names FHIR elements already; the body's schema names its own keys (under Bundle). */
const expressionOf = (field: string): string => (field === '(body)' ? 'Bundle' : ROOTS.test(field) ? field : `Bundle.${field}`);

export function operationOutcomeOf(body: ErrorBody): OperationOutcome {
  const code = body.code as ErrorCode | undefined;
  const message = code === 'UNSUPPORTED_MEDIA_TYPE' ? MEDIA_TYPE_MESSAGE : body.message;
  const coding = code ? [{ system: SYSTEMS.errorCode, code }] : undefined;
  const issues: OperationOutcomeIssue[] = (body.errors ?? []).map((problem) => ({
    severity: 'error',
    code: fieldIssueType(problem.message),
    details: coding ? { coding: structuredClone(coding), text: problem.message } : { text: problem.message },
    expression: [expressionOf(problem.field)],
  }));
  if (issues.length === 0) {
    issues.push({
      severity: 'error',
      code: (code && ISSUE_TYPES[code]) || UNCODED_ISSUE_TYPE,
      details: coding ? { coding, text: message } : { text: message },
    });
  }
  if (body.errorsTruncated) {
    issues.push({ severity: 'information', code: 'informational', diagnostics: 'More problems were found; only the first ones are listed' });
  }
  return { resourceType: 'OperationOutcome', issue: issues };
}

/**
 * The HTTP answer of the FHIR route: FHIR's media type on every body, and an error body (ours or a mock's
 * exact one) replaced by its OperationOutcome. Status and every other header stay as they were.
 */
export function fhirHttpResponse(response: HttpResponse): HttpResponse {
  const headers = { ...response.headers, 'content-type': FHIR_CONTENT_TYPE };
  if (response.statusCode < 400) return { ...response, headers };
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return response;
  }
  return isErrorBody(body) ? { ...response, headers, body: JSON.stringify(operationOutcomeOf(body)) } : response;
}
