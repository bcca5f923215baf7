import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Answers are built as typed object literals (docs/api.md#response-shapes): their types are derived from
 * the response schemas, so an answer missing a required key fails to compile, unless an `as` cast
 * silences the compiler. This scan fails on an object literal cast to an answer type (`{…} as
 * EligibilityBody`, `{} as OtherPayer`) anywhere in lib/ or functions/. A cast on a parsed input
 * (`JSON.parse(text) as Payer`) is not an object literal and stays allowed.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.includes('.generated.') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = ['lib', 'functions'].flatMap(sources);
const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

/** Every type exported by a module that derives types from the response schemas (FromSchema), and what they alias. */
const ANSWER_TYPES: ReadonlySet<string> = new Set(
  [...text.values()]
    .filter((source) => source.includes("from 'json-schema-to-ts'"))
    .flatMap((source) => [...source.matchAll(/^export type (\w+)\b/gm)].map((m) => m[1]!)),
);
/** Names that read as an answer even where no schema types them yet. */
const ANSWER_NAME = /^[A-Z]\w*(Body|Answer|Summary|Response|Block|Entry|Benefit|Figures|Line|View|Page|Result)$/;

/** Where `source` casts an object literal (`}` then `as`, `{}` included) to an answer type. */
function answerCasts(source: string): string[] {
  return [...source.matchAll(/\}\s*as\s+([A-Z]\w*)/g)].map((m) => m[1]!).filter((name) => ANSWER_TYPES.has(name) || ANSWER_NAME.test(name));
}

describe('answers are typed object literals, never cast', () => {
  it('knows the answer types the schemas derive', () => {
    for (const name of [
      'EligibilityBody',
      'BenefitSummary',
      'OtherPayer',
      'Limitation',
      'CobResult',
      'LetterResponse',
      'Payer',
      'ErrorBody',
      'BatchStatusView',
    ])
      expect(ANSWER_TYPES).toContain(name);
  });

  it('recognises a cast that builds an answer, and not one on a parsed input', () => {
    expect(answerCasts('const summary = { inNetwork, outNetwork } as BenefitSummary;')).toEqual(['BenefitSummary']);
    expect(answerCasts('const out = {} as OtherPayer;')).toEqual(['OtherPayer']);
    expect(answerCasts('  } as EligibilityBody;')).toEqual(['EligibilityBody']);
    expect(answerCasts('const payer = JSON.parse(text) as Payer;')).toEqual([]);
    expect(answerCasts('return (value as Record<string, unknown>)[key];')).toEqual([]);
  });

  it('finds none in lib/ or functions/', () => {
    expect(files).toContain('lib/eligibility/route.ts');
    const found = files.flatMap((file) => answerCasts(text.get(file)!).map((name) => `${file}: as ${name}`));
    expect(found).toEqual([]);
  });
});
