import { describe, expect, it } from 'vitest';
import { isFailure, normalizeFailure, nothingAnswered, tooManyTriesMessage } from '../../shared/api-failure';

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
        data: { error: '用户名或密码错误', code: 3, message: '用户名或密码错误' },
      }),
    ).toEqual({ status: 400, data: { code: 3, message: '用户名或密码错误' } });
  });
  it('says in Chinese what a status a member meets means when the body has no message, never its English reason', () => {
    const page = '<html><h1>413 Request Entity Too Large</h1></html>';
    const said = (status: number) => normalizeFailure({ status, data: page });
    expect(said(404)).toEqual({ status: 404, data: { code: 500, message: '请求的资源不存在' } });
    expect(said(400).data.message).toBe('请求无效');
    expect(said(401).data.message).toBe('未登录或登录已过期，请重新登录');
    expect(said(403).data.message).toBe('没有权限执行此操作');
    expect(said(408).data.message).toBe('请求超时，请检查网络后重试');
    expect(said(413).data.message).toBe('文件大小超出限制');
    expect(said(429).data.message).toBe('操作过于频繁，请稍后再试');
    expect(normalizeFailure({ status: 500, data: {} }).data.message).toBe('服务器内部错误，请稍后再试');
  });
  it('names the status code in Chinese for any other status without a message', () => {
    expect(normalizeFailure({ status: 418, data: 'I am a teapot' })).toEqual({
      status: 418,
      data: { code: 500, message: '请求失败（HTTP 418）' },
    });
    expect(normalizeFailure({ status: 201, data: {} }).data.message).toBe('请求失败（HTTP 201）');
  });
  it('says in Chinese that the service is unavailable for a 502, 503 or 504 without a message (a proxy in front of a backend away)', () => {
    for (const status of [502, 503, 504])
      expect(normalizeFailure({ status, data: '<html><h1>503 Service Unavailable</h1></html>' })).toEqual({
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
    expect(normalizeFailure({ status: 401, data: { message: '', code: '16' } })).toEqual({
      status: 401,
      data: { code: 500, message: '未登录或登录已过期，请重新登录' },
    });
  });
});

describe('nothingAnswered', () => {
  it('tells a failure where nothing answered from a server that answered 500', () => {
    expect(nothingAnswered(normalizeFailure())).toBe(true);
    expect(nothingAnswered(normalizeFailure({ status: 500, data: {} }))).toBe(false);
    expect(nothingAnswered(normalizeFailure({ status: 502, data: { code: 14, message: '后端服务暂时不可用' } }))).toBe(
      false,
    );
  });
});

describe('tooManyTriesMessage', () => {
  it('says how many seconds to wait, as the Retry-After header gives them', () => {
    expect(tooManyTriesMessage(42)).toBe('操作过于频繁，请 42 秒后再试');
  });
});
