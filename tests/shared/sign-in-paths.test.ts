import { describe, expect, it } from 'vitest';
import { isLimitedSignIn, SIGN_IN_PATHS, SIGN_IN_READS } from '../../shared/sign-in-paths';

describe('which calls the sign-in limit counts', () => {
  it('counts a POST or PUT to a sign-in path, a GET or HEAD of a sign-in read, nothing else', () => {
    for (const method of ['POST', 'PUT']) {
      expect(isLimitedSignIn(method, '/api/v1/user/login'), method).toBe(true);
      expect(isLimitedSignIn(method, '/api/v1/oauth/authorize'), method).toBe(false);
    }
    for (const method of ['GET', 'HEAD']) {
      expect(isLimitedSignIn(method, '/api/v1/oauth/authorize'), method).toBe(true);
      expect(isLimitedSignIn(method, '/api/v1/user/login'), method).toBe(false);
    }
    for (const method of ['DELETE', 'PATCH', 'OPTIONS']) {
      expect(isLimitedSignIn(method, '/api/v1/user/login'), method).toBe(false);
      expect(isLimitedSignIn(method, '/api/v1/oauth/authorize'), method).toBe(false);
    }
    // The path as the backend routes it: another spelling or a neighbour is not counted.
    expect(isLimitedSignIn('POST', '/api/v1/user/logins')).toBe(false);
    expect(isLimitedSignIn('GET', '/api/v1/oauth/authorize/')).toBe(false);
  });

  it('keeps the reads apart from the paths: a path is limited by one method set only', () => {
    for (const path of SIGN_IN_READS) expect(SIGN_IN_PATHS.has(path), path).toBe(false);
  });
});
