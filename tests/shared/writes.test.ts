import { describe, expect, it } from 'vitest';
import { isWriteCall, recordsTheCaller } from '../../shared/writes';

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

describe('which calls record under their caller', () => {
  it('counts the GET and HEAD of the searches, and nothing else', () => {
    for (const method of ['GET', 'HEAD', 'get']) {
      expect(recordsTheCaller(method, '/api/v1/document/search'), method).toBe(true);
      expect(recordsTheCaller(method, '/api/v1/article/search'), method).toBe(true);
    }
    expect(recordsTheCaller('POST', '/api/v1/document/search')).toBe(false);
    expect(recordsTheCaller('OPTIONS', '/api/v1/document/search')).toBe(false);
    expect(recordsTheCaller('GET', '/api/v1/document/list')).toBe(false);
    expect(recordsTheCaller('GET', '/api/v1/searchrecord/list')).toBe(false);
  });
});
