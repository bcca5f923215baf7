import packageJson from '../../package.json' with { type: 'json' };

/** The service's version: package.json's, bundled into each function at build time. */
export const SERVICE_VERSION: string = packageJson.version;
