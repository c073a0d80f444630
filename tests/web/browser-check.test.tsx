import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UNSUPPORTED_BROWSER_MESSAGE } from '../../shared/constants';
import { BrowserCheck, CHECK_DELAY_MS } from '../../web/src/kit/browser-check/BrowserCheck';
import { isSupportedBrowser } from '../../web/src/kit/browser-check/browser-support';
import UnsupportedBrowserNotice from '../../web/src/kit/browser-check/UnsupportedBrowserNotice';

const UA = {
  chrome116:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0.0.0 Safari/537.36',
  chrome117:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/117.0.0.0 Safari/537.36',
  headless156:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  firefox62: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:62.0) Gecko/20100101 Firefox/62.0',
  firefox63: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:63.0) Gecko/20100101 Firefox/63.0',
  safari14:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.0 Safari/605.1.15',
  safari141:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1 Safari/605.1.15',
  edge18:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  unknown: 'SomeNewBrowser/1.0',
};

describe('isSupportedBrowser (docs/product.md §9 minimum versions)', () => {
  it.each([
    ['Chrome 116', false, UA.chrome116],
    ['Chrome 117', true, UA.chrome117],
    ['headless Chromium 156', true, UA.headless156],
    ['Firefox 62', false, UA.firefox62],
    ['Firefox 63', true, UA.firefox63],
    ['Safari 14.0', false, UA.safari14],
    ['Safari 14.1', true, UA.safari141],
    ['legacy Edge 18', false, UA.edge18],
    ['Internet Explorer 11', false, UA.ie11],
    ['a browser bowser does not know', true, UA.unknown],
  ])('%s → supported: %s', (_name, supported, userAgent) => {
    expect(isSupportedBrowser(userAgent)).toBe(supported);
  });
});

describe('UnsupportedBrowserNotice', () => {
  it('warns an old browser at the top, with a way to get Chrome, and can be closed', async () => {
    render(<UnsupportedBrowserNotice userAgent={UA.chrome116} />);
    const banner = screen.getByRole('region', { name: '浏览器版本提示' });
    expect(banner.textContent).toContain(UNSUPPORTED_BROWSER_MESSAGE);
    expect(screen.getByRole('link', { name: '下载 Chrome' })).toBeTruthy();
    // Closed by a button named in Chinese (Semi's own is named "Close" whatever the locale).
    expect(banner.querySelector('[aria-label="Close"]')).toBeNull();
    await userEvent.click(within(banner).getByRole('button', { name: '关闭提示' }));
    expect(screen.queryByRole('region', { name: '浏览器版本提示' })).toBeNull();
  });

  it('says nothing to a supported browser', () => {
    const { container } = render(<UnsupportedBrowserNotice userAgent={UA.chrome117} />);
    expect(container.textContent).toBe('');
  });
});

describe('BrowserCheck (in every layout)', () => {
  afterEach(() => {
    vi.useRealTimers();
    // the navigator's own userAgent again
    delete (navigator as { userAgent?: string }).userAgent;
  });

  /** Renders the check in a browser that says `userAgent`, with the clock held: the check waits for it. */
  function renderIn(userAgent: string) {
    Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    return render(<BrowserCheck />);
  }

  it('warns an old browser once the page has loaded and the delay has passed', async () => {
    renderIn(UA.chrome116);
    expect(document.readyState).toBe('complete');
    await act(() => vi.advanceTimersByTimeAsync(CHECK_DELAY_MS - 100));
    expect(screen.queryByRole('region', { name: '浏览器版本提示' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(100));
    await vi.waitFor(() => expect(screen.getByRole('region', { name: '浏览器版本提示' })).toBeTruthy());
    expect(screen.getByRole('link', { name: '下载 Chrome' })).toBeTruthy();
  });

  it('says nothing to a supported browser', async () => {
    const { container } = renderIn(UA.chrome117);
    await act(() => vi.advanceTimersByTimeAsync(CHECK_DELAY_MS));
    // the check's chunk has come and answered: still nothing to show
    await act(async () => {
      await import('../../web/src/kit/browser-check/browser-support');
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(container.textContent).toBe('');
  });
});
