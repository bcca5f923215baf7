import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Bundle, CoverageEligibilityResponse } from '@medplum/fhirtypes';
import { readEligibilityBundle } from '../../lib/fhir/request.js';
import { loadR4Definitions, R4_LOAD_TIMEOUT_MS, r4Errors } from '../support/fhir-r4.js';
import { readRepoFile } from '../support/repo-docs.js';

/**
 * docs/fhir.md's worked example stays true: every FHIR resource it shows is valid R4, the Bundle in is
 * one the route reads, and the Bundle out shows what the code answers (the OpenAPI example, which
 * test/openapi/document.test.ts keeps fresh).
 */

beforeAll(() => loadR4Definitions(), R4_LOAD_TIMEOUT_MS);

const blocks = [...readRepoFile('docs/fhir.md').matchAll(/```json\n(\{[\s\S]*?\n\})\n```/g)].map((m) => JSON.parse(m[1]!) as { resourceType?: string });
const resources = blocks.filter((block) => typeof block.resourceType === 'string');
const openapi = JSON.parse(readRepoFile('openapi.json'));
const operation = openapi.paths['/api/fhir/r4/CoverageEligibilityRequest/$submit'].post;

describe('docs/fhir.md', () => {
  it("shows only valid R4 resources (the request, the answer, an EHR's bare request and an OperationOutcome)", () => {
    expect(resources.map((r) => r.resourceType).sort()).toEqual(['Bundle', 'Bundle', 'CoverageEligibilityRequest', 'OperationOutcome']);
    for (const resource of resources) expect(r4Errors(resource)).toEqual([]);
  });

  it("shows an EHR's bare request the route reads: contained resources, the member id by type MB, a logical provider", () => {
    const bare = resources.find((r) => r.resourceType === 'CoverageEligibilityRequest');
    const mapped = readEligibilityBundle(bare as never);
    expect(mapped.ok && [mapped.value.body.patientMemberId, mapped.value.body.payerId, mapped.value.body.providerId]).toEqual([
      'PPO100001',
      'SBXPPO',
      'PROVIDER-SANDBOX-1',
    ]);
  });

  it('shows a request Bundle the route reads, the one the OpenAPI document sends', () => {
    const request = resources.find((r) => (r as Bundle).entry?.[0]?.resource?.resourceType === 'CoverageEligibilityRequest');
    expect(readEligibilityBundle(request as never).ok).toBe(true);
    expect(request).toEqual(operation.requestBody.content['application/fhir+json'].examples.sandboxGarcia.value);
  });

  it('shows answer items the code gives for that request', () => {
    const answer = resources.find((r) => (r as Bundle).entry?.[0]?.resource?.resourceType === 'CoverageEligibilityResponse') as Bundle;
    const real = operation.responses['200'].content['application/fhir+json'].examples.sandboxGarcia.value as Bundle;
    const items = (bundle: Bundle) => (bundle.entry![0]!.resource as CoverageEligibilityResponse).insurance![0]!.item!;
    expect(items(answer).length).toBeGreaterThan(0);
    for (const item of items(answer)) expect(items(real)).toContainEqual(item);
    const { insurance: _shown, ...shownRest } = answer.entry![0]!.resource as CoverageEligibilityResponse;
    const { insurance: _real, ...realRest } = real.entry![0]!.resource as CoverageEligibilityResponse;
    expect(shownRest).toEqual(realRest);
  });
});
