import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The interactive API reference (docs/api.md#api-reference): `GET /api/docs` is a small HTML page that
 * loads Scalar's standalone API reference from `GET /api/docs/scalar.js` (served by the same function,
 * never from a CDN) and points it at `GET /api/openapi.json`. Its "Test Request" client calls the API on
 * the page's own origin and stage. The Content-Security-Policy allows nothing but this origin (and the
 * page's one inline script, by its hash), so no font, script or call can leave for another host.
 */

/** The standalone browser build of Scalar's API reference, by npm package and path inside it. */
export const SCALAR_SCRIPT = { pkg: '@scalar/api-reference', path: 'dist/browser/standalone.js', bundledAs: 'scalar.js' } as const;

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** `assets/scalar.js` beside the bundled handler in Lambda (infra/deploy copies it there), else the npm package. */
export function scalarScript(): string {
  const bundled = join(here, 'assets', SCALAR_SCRIPT.bundledAs);
  const candidates = [bundled, ...(require.resolve.paths(SCALAR_SCRIPT.pkg) ?? []).map((dir) => join(dir, SCALAR_SCRIPT.pkg, SCALAR_SCRIPT.path))];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`${SCALAR_SCRIPT.pkg}/${SCALAR_SCRIPT.path} is not installed`);
  return readFileSync(file, 'utf8');
}

/**
 * Configures the reference from the page's own address: the document and the server are found relative
 * to it, so the same page works at /api/docs locally and at /<stage>/api/docs behind API Gateway.
 */
const INIT = `
const base = location.pathname.replace(/\\/api\\/docs\\/?$/, '');
Scalar.createApiReference('#reference', {
  url: base + '/api/openapi.json',
  servers: [{ url: location.origin + base, description: 'This server' }],
  authentication: { preferredSecurityScheme: 'bearerAuth' },
  // Nothing that would reach scalar.com: no web fonts, AI agent, telemetry or hosted developer tools.
  withDefaultFonts: false,
  defaultOpenAllTags: true,
  agent: { disabled: true },
  telemetry: false,
  showDeveloperTools: 'never',
});
`.trim();

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page's headers: its own origin only; the inline initialiser by its hash. */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    `script-src 'self' ${sha256(INIT)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference: Eligibility, COB and Letter of Medical Necessity API</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script src="docs/scalar.js"></script>
<script>${INIT}</script>
</body>
</html>
`;
