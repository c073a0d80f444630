import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ErrorScreen } from '../../web/src/kit/error-screen/ErrorScreen';
import { isBot } from '../../shared/bots';

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('root error screen (docs/product.md §2)', () => {
  it('shows 出错啦！, the explanation, the 404 image and a link back to / for a 404', async () => {
    render(<ErrorScreen status={404} message="Page Not Found: /x" userAgent={browser} />);
    expect(screen.getByRole('heading', { name: '出错啦！' })).toBeTruthy();
    expect(screen.getByText('您访问的页面出现了问题，请稍后再试。')).toBeTruthy();
    expect(screen.getByText('Page Not Found: /x')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回首页' }).getAttribute('href')).toBe('/');
    expect(await screen.findByText((_, el) => el?.getAttribute('data-illustration') === 'notFound')).toBeTruthy();
  });

  it('uses the 500 image for any other status', async () => {
    render(<ErrorScreen status={503} userAgent={browser} />);
    expect(await screen.findByText((_, el) => el?.getAttribute('data-illustration') === 'failure')).toBeTruthy();
  });

  it('shows no error page to a search-engine bot', () => {
    const { container } = render(
      <ErrorScreen
        status={500}
        userAgent="Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
      />,
    );
    expect(container.innerHTML).toBe('');
  });

  it.each([
    ['Googlebot/2.1 (+http://www.google.com/bot.html)', true],
    ['Mozilla/5.0 (compatible; bingbot/2.0)', true],
    ['Sogou web spider/4.0', true],
    ['Mozilla/5.0 (Linux; Android 10) Bytespider', true],
    [browser, false],
    ['', false],
  ])('isBot(%j) → %s', (ua, bot) => {
    expect(isBot(ua)).toBe(bot);
  });
});
