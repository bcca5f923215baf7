/**
 * The 271 replies the X12 benches read (docs/benchmarks.md#reading-271-replies): the shared corpus
 * ($X12_CORPUS, else ../shared/corpus/x12) when present, else the project's fixtures.
 *
 * Each file is decoded as UTF-8 without its byte-order mark, as the reply reaches the service (inside
 * Stedi's JSON answer, where no file encoding applies). Seventeen corpus files were saved with a BOM,
 * and node-x12 reads its delimiters at fixed offsets from the first character: given the BOM it reads
 * the wrong ones and returns no interchange at all (without throwing), so timing it on the raw text
 * timed a failure, not a parse.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusFile {
  file: string;
  text: string;
  /** The text's size in UTF-8 bytes. */
  bytes: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function corpus271(): { source: 'shared corpus' | 'project fixtures'; files: CorpusFile[] } {
  const shared = process.env.X12_CORPUS ?? join(root, '../shared/corpus/x12');
  const useShared = existsSync(join(shared, 'manifest.json'));
  const dir = useShared ? shared : join(root, 'test/fixtures/x12');
  // TextDecoder drops a leading BOM (its ignoreBOM option is off by default).
  const decoder = new TextDecoder('utf-8');
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.271'))
    .sort()
    .map((file) => {
      const text = decoder.decode(readFileSync(join(dir, file)));
      return { file, text, bytes: Buffer.byteLength(text, 'utf8') };
    });
  return { source: useShared ? 'shared corpus' : 'project fixtures', files };
}
