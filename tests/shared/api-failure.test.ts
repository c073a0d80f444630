import { describe, expect, it } from 'vitest';
import { isFailure, normalizeFailure, nothingAnswered } from '../../shared/api-failure';

describe('isFailure', () => {
  it('treats only 200 as success', () => {
    expect(isFailure(200)).toBe(false);
    for (const s of [201, 204, 301, 400, 401, 403, 404, 500, 502, 504]) expect(isFailure(s)).toBe(true);
  });
});

describe('normalizeFailure', () => {
  it('keeps the server message and code', () => {
    expect(
      normalizeFailure({
        status: 400,
        statusText: 'Bad Request',
        data: { error: '用户名或密码错误', code: 3, message: '用户名或密码错误' },
      }),
    ).toEqual({ status: 400, data: { code: 3, message: '用户名或密码错误' } });
  });
  it('falls back to "status statusText" when the body has no message', () => {
    expect(normalizeFailure({ status: 404, statusText: 'Not Found', data: 'Not Found\n' })).toEqual({
      status: 404,
      data: { code: 500, message: '404 Not Found' },
    });
  });
  it('uses only the status when there is no status text', () => {
    expect(normalizeFailure({ status: 500, data: {} })).toEqual({ status: 500, data: { code: 500, message: '500' } });
  });
  it('says in Chinese that the service is unavailable for a 502, 503 or 504 without a message (a proxy in front of a backend away)', () => {
    for (const [status, statusText] of [
      [502, 'Bad Gateway'],
      [503, 'Service Unavailable'],
      [504, 'Gateway Timeout'],
    ] as const)
      expect(normalizeFailure({ status, statusText, data: '<html><h1>503 Service Unavailable</h1></html>' })).toEqual({
        status,
        data: { code: 500, message: '服务暂时不可用，请稍后再试' },
      });
    // The server's own reason stays.
    expect(
      normalizeFailure({ status: 503, data: { code: 503, message: '数据库暂时不可用，请稍后再试' } }).data.message,
    ).toBe('数据库暂时不可用，请稍后再试');
  });
  it('says in Chinese that the server could not be reached, with status and code 500, when there was no response', () => {
    const noAnswer = { status: 500, data: { code: 500, message: '无法连接服务器，请检查网络后重试' } };
    expect(normalizeFailure()).toEqual(noAnswer);
    expect(normalizeFailure({})).toEqual(noAnswer);
  });
  it('ignores an empty server message and a non-numeric code', () => {
    expect(normalizeFailure({ status: 401, statusText: 'Unauthorized', data: { message: '', code: '16' } })).toEqual({
      status: 401,
      data: { code: 500, message: '401 Unauthorized' },
    });
  });
});

describe('nothingAnswered', () => {
  it('tells a failure where nothing answered from a server that answered 500', () => {
    expect(nothingAnswered(normalizeFailure())).toBe(true);
    expect(nothingAnswered(normalizeFailure({ status: 500, statusText: 'Internal Server Error', data: {} }))).toBe(
      false,
    );
    expect(nothingAnswered(normalizeFailure({ status: 502, data: { code: 14, message: '后端服务暂时不可用' } }))).toBe(
      false,
    );
  });
});
