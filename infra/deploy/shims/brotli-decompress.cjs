// `brotli/decompress.js` for the function bundles: fontkit decodes WOFF2 faces with it, a 486 KB decoder
// and dictionary that every bundle drawing a PDF would parse at each cold start. The service embeds only
// its own TrueType, OpenType and WOFF (zlib) faces (lib/pdf/font-files.ts), never WOFF2, so the bundles
// take this stand-in, which refuses; tests and `npm start` run the real module. docs/deployment.md#cold-starts
module.exports = function decompress() {
  throw new Error('WOFF2 fonts are not decoded in the function bundles (brotli is left out: docs/deployment.md#cold-starts)');
};
