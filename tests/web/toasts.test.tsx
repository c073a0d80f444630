import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  addToast,
  clearToasts,
  closeToast,
  pauseToast,
  resumeToast,
  TOAST_DURATION_MS,
  TOAST_MAX,
  TOAST_REMOVE_DELAY_MS,
  toasts,
} from '../../web/src/kit/toasts/toast-store';
import { FAILURE_TITLE, toastFailure } from '../../web/src/kit/toasts/failure-toast';
import { ToastViewport } from '../../web/src/kit/toasts/ToastViewport';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    clearToasts();
  });
  afterEach(() => {
    clearToasts();
    vi.useRealTimers();
  });

  it('uses the limits of docs/product.md §9', () => {
    expect([TOAST_MAX, TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS]).toEqual([5, 5000, 200]);
  });

  it('opens a toast with its title, description, color and a close button', () => {
    const id = addToast({ title: '保存成功', description: '资料已更新', color: 'success' });
    expect(toasts.value).toEqual([
      {
        id,
        open: true,
        title: '保存成功',
        description: '资料已更新',
        icon: 'success',
        color: 'success',
        actions: [],
        close: true,
      },
    ]);
  });

  it('closes after 5000 ms and removes the toast 200 ms later', () => {
    const id = addToast({ title: 'a' });
    vi.advanceTimersByTime(4999);
    expect(toasts.value[0]).toMatchObject({ id, open: true });
    vi.advanceTimersByTime(1);
    expect(toasts.value[0]).toMatchObject({ id, open: false });
    vi.advanceTimersByTime(199);
    expect(toasts.value).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts.value).toHaveLength(0);
  });

  it('shows at most 5 toasts, dropping the oldest', () => {
    for (let i = 1; i <= 7; i++) addToast({ title: `t${i}` });
    expect(toasts.value.map((t) => t.title)).toEqual(['t3', 't4', 't5', 't6', 't7']);
  });

  it('pauses the timer while hovered or focused', () => {
    const id = addToast({ title: 'a' });
    vi.advanceTimersByTime(3000);
    pauseToast(id);
    vi.advanceTimersByTime(10_000);
    expect(toasts.value[0]?.open).toBe(true);
    resumeToast(id);
    vi.advanceTimersByTime(1999);
    expect(toasts.value[0]?.open).toBe(true);
    vi.advanceTimersByTime(1);
    expect(toasts.value[0]?.open).toBe(false);
  });

  it('titles error toasts with the fallback and shows the server message', () => {
    toastFailure(FAILURE_TITLE.login, { status: 400, data: { code: 3, message: '用户名或密码错误' } });
    expect(toasts.value[0]).toMatchObject({
      title: '登录失败',
      description: '用户名或密码错误',
      color: 'error',
      icon: 'error',
    });
    expect(Object.values(FAILURE_TITLE)).toEqual(['注册失败', '登录失败', '修改失败', '获取权限失败']);
  });
});

describe('ToastViewport', () => {
  afterEach(() => act(() => clearToasts()));

  const notices = () => screen.getByRole('region', { name: '通知 (F8)' });
  const region = (politeness: 'polite' | 'assertive') => {
    const found = notices().querySelector(`[aria-live="${politeness}"]`);
    if (!found) throw new Error(`no ${politeness} live region`);
    return found;
  };
  const lines = (politeness: 'polite' | 'assertive') => [...region(politeness).children].map((p) => p.textContent);

  it('has its polite and assertive live regions in the page before any toast, empty', () => {
    render(<ToastViewport />);
    expect(lines('polite')).toEqual([]);
    expect(lines('assertive')).toEqual([]);
    expect(region('polite').textContent).toBe('');
    expect(region('assertive').textContent).toBe('');
  });

  it("says a toast's title and message in the polite region, an error's in the assertive one", () => {
    render(<ToastViewport />);
    const polite = region('polite');
    const assertive = region('assertive');
    act(() => {
      addToast({ title: '保存成功', description: '资料已更新', color: 'success' });
    });
    expect(lines('polite')).toEqual(['保存成功：资料已更新']);
    expect(lines('assertive')).toEqual([]);
    act(() => {
      toastFailure(FAILURE_TITLE.login, { status: 400, data: { code: 3, message: '用户名或密码错误' } });
      addToast({ title: '已复制链接' });
    });
    expect(lines('polite')).toEqual(['保存成功：资料已更新', '已复制链接']);
    expect(lines('assertive')).toEqual(['登录失败：用户名或密码错误']);
    // The same regions as before the toasts: their text changed, they did not come with it.
    expect(region('polite')).toBe(polite);
    expect(region('assertive')).toBe(assertive);
  });

  it('leaves the visible toasts out of the live regions, so that nothing is said twice', () => {
    render(<ToastViewport />);
    act(() => {
      addToast({ title: '保存成功', color: 'success' });
      addToast({ title: '上传失败', color: 'error' });
    });
    const shown = [...notices().querySelectorAll('.app-toast')];
    expect(shown.map((t) => t.textContent)).toEqual(['保存成功', '上传失败']);
    for (const toast of shown) {
      expect(toast.getAttribute('role')).toBeNull();
      expect(toast.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    }
    expect(within(notices()).queryByRole('status')).toBeNull();
    expect(within(notices()).queryByRole('alert')).toBeNull();
  });

  it('says a line once, and again when a toast of the same title replaces it', () => {
    render(<ToastViewport />);
    const failure = { status: 500, data: { code: 13, message: '邮件服务未配置' } };
    act(() => {
      toastFailure('发送失败', failure);
    });
    const first = region('assertive').firstElementChild;
    act(() => {
      addToast({ title: '验证码已发送' });
    });
    // Another toast leaves the line said already in place: it is not said again.
    expect(region('assertive').firstElementChild).toBe(first);
    act(() => {
      toastFailure('发送失败', failure);
    });
    expect(lines('assertive')).toEqual(['发送失败：邮件服务未配置']);
    // A new line in place of the old one: an addition, which a screen reader says.
    expect(region('assertive').firstElementChild).not.toBe(first);
  });

  it('takes the line of a closed toast out of its region', () => {
    render(<ToastViewport />);
    act(() => {
      addToast({ title: '第一条' });
      addToast({ title: '第二条' });
    });
    act(() => {
      closeToast(toasts.value[0]!.id);
    });
    expect(lines('polite')).toEqual(['第二条']);
  });

  it("says a toast's buttons and F8, the key that reaches them, without taking the focus", async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">elsewhere</button>
        <ToastViewport />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    act(() => {
      addToast({
        title: '上传失败',
        description: '网络异常',
        color: 'error',
        actions: [{ label: '重试', onClick: () => {} }],
      });
      addToast({
        title: '已移入回收站',
        actions: [
          { label: '撤销', onClick: () => {} },
          { label: '查看', onClick: () => {} },
        ],
      });
    });
    expect(lines('assertive')).toEqual(['上传失败：网络异常，按 F8 可前往“重试”']);
    expect(lines('polite')).toEqual(['已移入回收站，按 F8 可前往“撤销”或“查看”']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('{F8}');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '重试' }));
  });

  it('renders toasts bottom-right with actions and closes one from its button', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(<ToastViewport />);
    act(() => {
      addToast({
        title: '上传失败',
        description: '网络异常',
        color: 'error',
        actions: [{ label: '重试', onClick: onRetry }],
      });
    });
    const shown = notices().querySelector('.app-toast');
    expect(shown?.textContent).toContain('上传失败');
    expect(shown?.textContent).toContain('网络异常');
    await user.click(screen.getByRole('button', { name: '重试' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(toasts.value[0]?.open).toBe(false);
  });

  it('moves the focus to the newest toast on F8', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">elsewhere</button>
        <ToastViewport />
      </>,
    );
    act(() => {
      addToast({ title: '第一条' });
      addToast({ title: '第二条' });
    });
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    await user.keyboard('{F8}');
    expect(document.activeElement?.textContent).toContain('第二条');
    expect(document.activeElement?.closest('[aria-label="通知 (F8)"]')).toBeTruthy();
  });
});
