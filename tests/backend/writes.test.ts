import { describe, expect, it } from 'vitest';
import { services } from '../../backend/app';
import { GET_RPCS_THAT_WRITE } from '../../shared/writes';

// shared/writes.ts names the GET RPCs that write by their paths: each must be one the backend
// serves as GET, or a renamed route would silently lose the gateway's origin check.

describe('GET_RPCS_THAT_WRITE', () => {
  it('names GET RPCs of the backend', () => {
    const gets = new Set(
      services.flatMap((service) => service.rpcs.filter((rpc) => rpc.method === 'GET').map((rpc) => rpc.url)),
    );
    for (const path of GET_RPCS_THAT_WRITE) expect(gets.has(path), path).toBe(true);
  });
});
