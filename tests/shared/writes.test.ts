import { describe, expect, it } from 'vitest';
import { isWriteCall } from '../../shared/writes';

describe('which calls write', () => {
  it('counts every method but GET, HEAD and OPTIONS, and the GET RPCs that spend', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post'])
      expect(isWriteCall(method, '/api/v1/document'), method).toBe(true);
    expect(isWriteCall('GET', '/api/v1/document')).toBe(false);
    expect(isWriteCall('GET', '/api/v1/document/download')).toBe(true);
    expect(isWriteCall('HEAD', '/api/v1/document/download/bereviewed')).toBe(true);
    expect(isWriteCall('OPTIONS', '/api/v1/document/download')).toBe(false);
    expect(isWriteCall('GET', '/api/v1/document/downloads')).toBe(false);
  });
});
