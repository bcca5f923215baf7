import { describe, it, expect } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * docs/architecture.md#ports-and-adapters: domain folders reach the clearinghouse and the language model
 * through the ports on the runtime, never through an upstream client module, and import no AWS SDK or
 * Powertools utility outside their `adapters/` folder (the enrollment store's DynamoDB adapter lives in
 * lib/runtime; batch and discovery keep theirs in lib/<folder>/adapters/).
 */
const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));
const DOMAIN = ['eligibility', 'cob', 'payers', 'discovery', 'batch', 'fhir', 'mcp', 'card', 'letter', 'enrollment'];
/** Upstream modules that are not clients: shape checks and the retry policy's `Sleep`. */
const NOT_CLIENTS = new Set(['json.js', 'retry.js', 'body.js']);

const importsOf = (folder: string): { file: string; from: string; names: string[] }[] =>
  readdirSync(join(LIB, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const text = readFileSync(join(LIB, folder, file), 'utf8');
      return [...text.matchAll(/(?:import\s+(?:type\s+)?\{([^}]*)\}\s+from|from|import\()\s*'([^']+)'/g)].map((m) => ({
        file: `${folder}/${file}`,
        from: m[2]!,
        names: (m[1] ?? '')
          .split(',')
          .map((name) => name.replace(/^\s*type\s+/, '').trim())
          .filter(Boolean),
      }));
    });

/** Which module of lib/upstream each name of its door (index.ts) comes from. */
const UPSTREAM_MODULE_OF = new Map(
  [...readFileSync(join(LIB, 'upstream/index.ts'), 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'\.\/([^']+)'/g)].flatMap((m) =>
    m[1]!.split(',').map((name) => [name.replace(/^\s*type\s+/, '').trim(), m[2]!] as const),
  ),
);

describe('ports and adapters', () => {
  it('no domain folder imports an upstream client module, directly or through the upstream door', () => {
    const clients = DOMAIN.flatMap(importsOf).flatMap(({ file, from, names }) => {
      const upstream = /\/upstream\/(.+)$/.exec(from);
      if (upstream === null) return [];
      const modules = upstream[1] === 'index.js' ? names.map((name) => UPSTREAM_MODULE_OF.get(name) ?? `unknown name ${name}`) : [upstream[1]!];
      return modules.filter((module) => !NOT_CLIENTS.has(module)).map((module) => ({ file, module }));
    });
    expect(clients).toEqual([]);
  });

  it('knows where each name of the upstream door comes from', () => {
    expect(UPSTREAM_MODULE_OF.get('isJsonObject')).toBe('json.js');
    expect(UPSTREAM_MODULE_OF.get('timerSleep')).toBe('retry.js');
    expect([...UPSTREAM_MODULE_OF.values()].some((module) => !NOT_CLIENTS.has(module))).toBe(true);
  });

  it('no domain folder imports an AWS SDK or a Powertools utility outside its adapters/ folder', () => {
    const aws = DOMAIN.flatMap(importsOf).filter(({ file, from }) => /^@aws-(sdk|lambda-powertools)\//.test(from) && !/^[a-z]+\/adapters\//.test(file));
    expect(aws).toEqual([]);
    // The adapters do import them: without them the rule above would look at nothing.
    expect(['batch', 'discovery'].flatMap(importsOf).filter(({ from }) => from.startsWith('@aws-sdk/')).length).toBeGreaterThan(0);
  });

  it('the letter and the card reader reach the model through the runtime, and the runtime wires the Anthropic adapter', () => {
    for (const folder of ['letter', 'card']) expect(importsOf(folder).filter(({ from }) => /\/upstream\//.test(from))).toEqual([]);
    expect(importsOf('runtime').some(({ from, names }) => /\/upstream\/index\.js$/.test(from) && names.includes('anthropicModel'))).toBe(true);
  });

  it('no domain folder names the clearinghouse that answers', () => {
    const named = DOMAIN.filter((folder) => folder !== 'batch' && folder !== 'mcp')
      .flatMap((folder) => readdirSync(join(LIB, folder), { recursive: true, encoding: 'utf8' }).map((file) => join(folder, file)))
      .filter((file) => file.endsWith('.ts') && /runtime\.stediKey|sandbox\.stedi|'stedi-(raw-x12|cob|payers)'/.test(readFileSync(join(LIB, file), 'utf8')));
    expect(named).toEqual([]);
  });
});
