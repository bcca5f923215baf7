import { describe, expect, it } from '@jest/globals';
import { matchRoute, pathParametersOf } from '../../lib/http/routes.js';

/** `{name}` segments in the route table, matched as API Gateway matches `{name}` resources. */

describe('route paths with parameters', () => {
  it('reads the parameter of one non-empty segment, decoded', () => {
    expect(pathParametersOf('/api/payers/{payerId}', '/api/payers/60054')).toEqual({ payerId: '60054' });
    expect(pathParametersOf('/api/payers/{payerId}', '/api/payers/BCBS%20NC')).toEqual({ payerId: 'BCBS NC' });
    expect(pathParametersOf('/api/payers/{payerId}', '/api/payers/')).toBeUndefined();
    expect(pathParametersOf('/api/payers/{payerId}', '/api/payers/a/b')).toBeUndefined();
    expect(pathParametersOf('/api/payers', '/api/payers')).toEqual({});
  });

  it('routes GET /api/payers/{id}, answers 405 for another method, and 404 deeper down', () => {
    expect(matchRoute('GET', '/api/payers/87726')).toMatchObject({ kind: 'route', route: { path: '/api/payers/{payerId}', function: 'payers' } });
    expect(matchRoute('DELETE', '/api/payers/87726')).toEqual({ kind: 'method-not-allowed', path: '/api/payers/87726', allow: ['GET'] });
    expect(matchRoute('GET', '/api/mcp')).toEqual({ kind: 'method-not-allowed', path: '/api/mcp', allow: ['POST'] });
    expect(matchRoute('GET', '/api/payers/87726/plans').kind).toBe('not-found');
  });
});
