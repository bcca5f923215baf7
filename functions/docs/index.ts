import { DOCS_PAGE, DOCS_PAGE_HEADERS, publicHandler, scalarScript } from '../../lib/http/index.js';

/**
 * GET /api/docs and GET /api/docs/scalar.js: the interactive API reference of the OpenAPI document and
 * the Scalar script it loads, both without authentication (docs/api.md#api-reference).
 */
export const handler = publicHandler('docs', (path) =>
  path.endsWith('/scalar.js')
    ? { status: 200, text: scalarScript(), contentType: 'text/javascript; charset=utf-8', headers: { 'x-content-type-options': 'nosniff' } }
    : { status: 200, text: DOCS_PAGE, contentType: 'text/html; charset=utf-8', headers: DOCS_PAGE_HEADERS },
);
