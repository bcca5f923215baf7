import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './document.js';
import { sandboxExamples } from './sandbox-examples.js';

/** `npm run openapi`: regenerates openapi.json from the schemas (run it after changing one). */
const target = new URL('../../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(await sandboxExamples()), null, 2)}\n`);
process.stderr.write(`wrote ${target.pathname}\n`);
