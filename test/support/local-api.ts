import type { LocalEnvironment } from '../../infra/dev/local/environment.js';
import { startLocalServer, type LocalServer, type LocalServerOptions } from '../../infra/dev/local/server.js';
import { startLocalEnvironment } from './local-environment.js';

/**
 * The whole API on an ephemeral loopback port, as `npm start` runs it: dev token, sandbox
 * clearinghouse and Messages API, enrollments in in-process dynalite.
 */
export interface LocalApi {
  url: string;
  token: string;
  call(
    path: string,
    body: unknown,
    init?: { token?: string | null; contentType?: string; method?: string; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    body: any;
  }>;
  close(): Promise<void>;
}

export async function startLocalApi(options: Omit<LocalServerOptions, 'port'> = {}): Promise<LocalApi> {
  const environment: LocalEnvironment = await startLocalEnvironment(process.env);
  let server: LocalServer;
  try {
    server = await startLocalServer({ ...options, port: 0 });
  } catch (error) {
    await environment.close();
    throw error;
  }
  const token = environment.devToken ?? 'local-dev-token';
  return {
    url: server.url,
    token,
    async call(path, body, init = {}) {
      const headers: Record<string, string> = { 'content-type': init.contentType ?? 'application/json' };
      const bearer = init.token === undefined ? token : init.token;
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      Object.assign(headers, init.headers);
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'POST',
        headers,
        ...(init.method === 'GET' || init.method === 'HEAD' || init.method === 'OPTIONS' ? {} : { body: init.rawBody ?? JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await server.close();
      await environment.close();
    },
  };
}
