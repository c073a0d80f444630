import { describe, expect, it } from 'vitest';
import { zh } from '../../shared/chinese-text';

describe('zh', () => {
  it('spaces a value of Latin letters or digits from the Chinese around it', () => {
    const label = 'QQ';
    expect(zh`${label}登录未开启`).toBe('QQ 登录未开启');
    expect(zh`无法连接${label}登录服务`).toBe('无法连接 QQ 登录服务');
    expect(zh`还可尝试${3}次`).toBe('还可尝试 3 次');
  });

  it('adds nothing beside Chinese values, punctuation or spaces already there', () => {
    expect(zh`${'微信'}登录未开启`).toBe('微信登录未开启');
    expect(zh`（${3}）${'QQ'}，${'x'}`).toBe('（3）QQ，x');
    expect(zh`共 ${2} 页`).toBe('共 2 页');
    expect(zh`${''}登录`).toBe('登录');
  });
});
