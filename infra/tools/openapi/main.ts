import { writeFileSync } from 'node:fs';
import { VALIDATORS_PATH, validatorsModule } from './validators.js';

/**
 * `npm run openapi`: regenerates what derives from the schemas (run it after changing one): the
 * compiled request validators, then openapi.json. The validators come first and the document's
 * modules are imported after, because those import the validators.
 */
writeFileSync(VALIDATORS_PATH, validatorsModule());
process.stderr.write(`wrote ${VALIDATORS_PATH.pathname}\n`);
const { buildOpenApiDocument } = await import('./document.js');
const { sandboxExamples } = await import('./sandbox-examples.js');
const target = new URL('../../../openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(await sandboxExamples()), null, 2)}\n`);
process.stderr.write(`wrote ${target.pathname}\n`);
