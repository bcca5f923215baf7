import { describe, it, expect } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docs/architecture.md#ports-and-adapters: domain folders reach the clearinghouse through the port on the
 * runtime, never through an upstream client module, and the enrollment store's port has no AWS SDK
 * beside it (its DynamoDB adapter lives in lib/runtime).
 */
const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));
const DOMAIN = ['eligibility', 'cob', 'payers', 'batch', 'fhir', 'mcp'];
/** Upstream modules that are not clients: shape checks and the retry policy's `Sleep`. */
const NOT_CLIENTS = new Set(['json.js', 'retry.js', 'body.js']);

const importsOf = (folder: string): { file: string; from: string }[] =>
  readdirSync(join(LIB, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const text = readFileSync(join(LIB, folder, file), 'utf8');
      return [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((m) => ({ file: `${folder}/${file}`, from: m[1]! }));
    });

describe('ports and adapters', () => {
  it('no domain folder imports an upstream client module', () => {
    const clients = DOMAIN.flatMap(importsOf).filter(({ from }) => {
      const upstream = /\/upstream\/(.+)$/.exec(from);
      return upstream !== null && !NOT_CLIENTS.has(upstream[1]!);
    });
    expect(clients).toEqual([]);
  });

  it('lib/enrollment imports no AWS SDK', () => {
    expect(importsOf('enrollment').filter(({ from }) => from.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('no domain folder names the clearinghouse that answers', () => {
    const named = DOMAIN.filter((folder) => folder !== 'batch' && folder !== 'mcp')
      .flatMap((folder) => readdirSync(join(LIB, folder), { recursive: true, encoding: 'utf8' }).map((file) => join(folder, file)))
      .filter((file) => file.endsWith('.ts') && /runtime\.stediKey|sandbox\.stedi|'stedi-(raw-x12|cob|payers)'/.test(readFileSync(join(LIB, file), 'utf8')));
    expect(named).toEqual([]);
  });
});
