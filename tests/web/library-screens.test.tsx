// The public library screens in the real route tree with a scripted backend: the header's
// search box and upload link, the home page's document sections, the library's filters and
// paging kept in the address, and the search results with their highlights and suggestions.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Document } from '../../shared/types/document';
import { highlightSegments } from '../../web/src/features/search/HighlightedText';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts } from '../../web/src/kit/toasts/toast-store';
import { admin, holdCalls, member, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const location = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;
const calls = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], path: string) =>
  fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://localhost')).filter((url) => url.pathname === path);

const doc = (id: number, title: string, extra: Partial<Document> = {}): Document => ({
  id,
  title,
  ext: '.pdf',
  pages: 12,
  size: 2048,
  price: 0,
  status: 2,
  category_id: [7],
  attachment: { hash: '0123456789abcdef0123456789abcdef' },
  ...extra,
});

describe('header', () => {
  it('searches from every public page', async () => {
    const { router } = renderApp('/', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
    });
    const box = await screen.findAllByRole('searchbox', { name: '搜索关键词' });
    await userEvent.type(box[0] as HTMLElement, ' 图书馆 {Enter}');
    await waitFor(() => expect(location(router)).toBe('/search?wd=%E5%9B%BE%E4%B9%A6%E9%A6%86'));
  });

  it('does not send words of punctuation alone, and says there why and what to type', async () => {
    const { router } = renderApp('/', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
    });
    const box = (await screen.findAllByRole('searchbox', { name: '搜索关键词' }))[0] as HTMLElement;
    await userEvent.type(box, '《》——、{Enter}');
    const note = await screen.findByText('标点和空格无法搜索，请输入文字、字母或数字进行搜索。');
    expect(note.getAttribute('role')).toBe('alert');
    expect(location(router)).toBe('/');
    // Words typed on: the note goes, and the words are searched.
    await userEvent.type(box, '红楼梦');
    expect(screen.queryByText('标点和空格无法搜索，请输入文字、字母或数字进行搜索。')).toBeNull();
    await userEvent.type(box, '{Enter}');
    await waitFor(() => expect(location(router)).toBe(`/search?wd=${encodeURIComponent('《》——、红楼梦')}`));
  });

  it('offers 上传文档 to members whose upload right the server confirms, and not to others', async () => {
    const allowed = renderApp('/', {
      user: member,
      backend: { 'GET /api/v1/user/caniuploaddocument': { status: 200, body: {} } },
    });
    expect((await screen.findByRole('link', { name: '上传文档' })).getAttribute('href')).toBe('/upload');
    allowed.unmount();
    renderApp('/', {
      user: { ...member, id: 3 },
      backend: {
        'GET /api/v1/user/caniuploaddocument': { status: 403, body: { code: 7, message: '您没有上传文档的权限' } },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: '测试文库' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: '上传文档' })).toBeNull());
  });
});

describe('home page', () => {
  it('shows each top-level category with its latest documents, the recommended ones and the recommended words', async () => {
    renderApp('/', {
      settings: { ...settings, system: { ...settings.system, recommend_words: ['图书馆', '古籍'] } },
      backend: {
        'GET /api/v1/document/home': {
          status: 200,
          body: {
            document: [
              {
                category_id: 7,
                category_name: '教育资料',
                document: [doc(1, '城市图书馆', { cover: '/view/cover/abc', category_id: undefined })],
              },
            ],
          },
        },
        'GET /api/v1/document/list': (url) => ({
          status: 200,
          body: {
            document: url.searchParams.get('is_recommend') === 'true' ? [doc(2, '推荐的文档', { price: 8 })] : [],
          },
        }),
      },
    });
    const section = await screen.findByRole('region', { name: /教育资料/ });
    expect(
      within(section)
        .getByRole('link', { name: /城市图书馆/ })
        .getAttribute('href'),
    ).toBe('/library/7/1');
    expect(within(section).getByRole('link', { name: '更多' }).getAttribute('href')).toBe('/library/7');
    const recommended = await screen.findByRole('region', { name: '推荐文档' });
    expect(within(recommended).getByText('8 魔豆')).toBeTruthy();
    expect(screen.getByRole('link', { name: '古籍' }).getAttribute('href')).toBe('/search?wd=%E5%8F%A4%E7%B1%8D');
  });
});

describe('home page of a new site', () => {
  const empty: Backend = { 'GET /api/v1/document/list': { status: 200, body: { document: [] } } };

  it('offers its owner the admin screens that fill the empty sections', async () => {
    renderApp('/', {
      user: admin,
      permissions: [
        { id: 1, method: 'GRPC', path: '/api.v1.CategoryAPI/ListCategory', title: '查看分类列表' },
        { id: 2, method: 'GRPC', path: '/api.v1.DocumentAPI/ListDocument', title: '查看文档列表' },
      ],
      categories: [],
      backend: empty,
    });
    const categories = await screen.findByRole('region', { name: /文档分类/ });
    expect(within(categories).getByText('暂无分类')).toBeTruthy();
    expect(within(categories).getByRole('link', { name: '添加文档分类' }).getAttribute('href')).toBe(
      '/admin/document/category',
    );
    const latest = await screen.findByRole('region', { name: '最新文档' });
    expect((await within(latest).findByRole('link', { name: '上传第一篇文档' })).getAttribute('href')).toBe(
      '/admin/document/upload',
    );
  });

  it('offers visitors and members no admin screen there', async () => {
    renderApp('/', { user: member, categories: [], backend: empty });
    const latest = await screen.findByRole('region', { name: '最新文档' });
    await within(latest).findByText('暂无文档');
    expect(screen.getByText('暂无分类')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '添加文档分类' })).toBeNull();
    expect(screen.queryByRole('link', { name: '上传第一篇文档' })).toBeNull();
  });
});

describe('library', () => {
  function libraryBackend(total = 60): Backend {
    return {
      'GET /api/v1/document/list': (url) => {
        const page = Number(url.searchParams.get('page'));
        return { status: 200, body: { total, document: [doc(100 + page, `第${page}页的文档`)] } };
      },
    };
  }

  it('shows the category with breadcrumbs and keeps filters, order and page in the address', async () => {
    const { router, fetchMock } = renderApp('/library/7', { backend: libraryBackend() });
    expect(await screen.findByRole('heading', { level: 1, name: /教育资料/ })).toBeTruthy();
    expect(await screen.findByText('第1页的文档')).toBeTruthy();
    expect(
      within(screen.getByRole('navigation', { name: '当前位置' }))
        .getByRole('link', { name: '文库资料' })
        .getAttribute('href'),
    ).toBe('/library');
    const first = calls(fetchMock, '/api/v1/document/list')[0] as URL;
    expect(first.searchParams.getAll('category_id')).toEqual(['7']);
    expect(first.searchParams.getAll('status')).toEqual(['2']);
    expect(first.searchParams.get('size')).toBe('24');

    await userEvent.click(within(screen.getByRole('group', { name: '格式' })).getByRole('link', { name: 'PDF' }));
    // The order's links carry the filters of the screen they were drawn for: the router's
    // address changes first, the screen when React has rendered the navigation.
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: '格式' }))
          .getByRole('link', { name: 'PDF' })
          .getAttribute('aria-current'),
      ).toBe('true'),
    );
    await userEvent.click(within(screen.getByRole('group', { name: '排序' })).getByRole('link', { name: '最多下载' }));
    await waitFor(() => expect(location(router)).toBe('/library/7?ext=pdf&sort=downloads'));
    // likewise the pages' links: they carry the order once the screen shows it
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: '排序' }))
          .getByRole('link', { name: '最多下载' })
          .getAttribute('aria-current'),
      ).toBe('true'),
    );
    await userEvent.click(
      within(screen.getByRole('navigation', { name: '分页' })).getByRole('link', { name: '第 3 页' }),
    );
    await waitFor(() => expect(location(router)).toBe('/library/7?ext=pdf&sort=downloads&page=3'));
    expect(await screen.findByText('第3页的文档')).toBeTruthy();
    const last = calls(fetchMock, '/api/v1/document/list').at(-1) as URL;
    expect([last.searchParams.get('ext'), last.searchParams.get('order'), last.searchParams.get('page')]).toEqual([
      'pdf',
      'download_count desc',
      '3',
    ]);

    // Back goes to the previous page of the list.
    await act(() => router.navigate(-1));
    expect(location(router)).toBe('/library/7?ext=pdf&sort=downloads');
    expect(await screen.findByText('第1页的文档')).toBeTruthy();
  });

  it('dims the list it shows under 正在加载… while another order or page comes, so it is not taken for it', async () => {
    const { fetchMock } = renderApp('/library/7', {
      backend: {
        'GET /api/v1/document/list': (url) => {
          const title = `${url.searchParams.get('order') ?? '最新'}的第${url.searchParams.get('page')}页`;
          return { status: 200, body: { total: 60, document: [doc(1, title)] } };
        },
      },
    });
    expect(await screen.findByText('id desc的第1页')).toBeTruthy();
    expect(screen.queryByText('正在加载…')).toBeNull();
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/document/list');
    await userEvent.click(within(screen.getByRole('group', { name: '排序' })).getByRole('link', { name: '最多浏览' }));
    const note = await screen.findByText('正在加载…');
    expect(note.getAttribute('role')).toBe('status');
    // The list asked for is not there yet: the one shown is the previous, under the note.
    const list = screen.getByRole('region', { name: '文档列表' });
    expect(within(list).getByText('id desc的第1页')).toBeTruthy();
    expect(note.compareDocumentPosition(within(list).getByText('id desc的第1页'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    release();
    expect(await screen.findByText('view_count desc的第1页')).toBeTruthy();
    expect(screen.queryByText('正在加载…')).toBeNull();
  });

  it('keeps the format, industry and order, not the page, when another category is chosen', async () => {
    renderApp('/library/7?ext=txt&language=education&sort=views&page=2', {
      backend: libraryBackend(),
      categories: [
        { id: 7, title: '教育资料', type: 0, enable: true, parent_id: 0 },
        { id: 8, title: '文学小说', type: 0, enable: true, parent_id: 0 },
      ],
    });
    expect(await screen.findByText('第2页的文档')).toBeTruthy();
    const categories = within(screen.getByRole('group', { name: '分类' }));
    expect(categories.getByRole('link', { name: '文学小说' }).getAttribute('href')).toBe(
      '/library/8?ext=txt&language=education&sort=views',
    );
  });

  it('gives the category line a 全部 that is chosen in a category with sub-categories and leads one level up', async () => {
    const categories = [
      { id: 7, title: '教育资料', type: 0, enable: true, parent_id: 0 },
      { id: 71, title: '高中数学', type: 0, enable: true, parent_id: 7 },
      { id: 72, title: '大学英语', type: 0, enable: true, parent_id: 7 },
      { id: 8, title: '文学小说', type: 0, enable: true, parent_id: 0 },
    ];
    const line = () => within(screen.getByRole('group', { name: '分类' }));
    const chosen = () =>
      line()
        .getAllByRole('link')
        .filter((link) => link.getAttribute('aria-current') === 'true')
        .map((link) => link.textContent);

    // A category with sub-categories lists them, and its 全部 (the category itself) is the choice.
    const first = renderApp('/library/7?ext=pdf', { backend: libraryBackend(), categories });
    expect(await screen.findByText('第1页的文档')).toBeTruthy();
    expect(line().getByRole('link', { name: '全部' }).getAttribute('href')).toBe('/library/7?ext=pdf');
    expect(chosen()).toEqual(['全部']);
    first.unmount();

    // A sub-category lists its siblings, and 全部 goes back to its parent.
    const second = renderApp('/library/71', { backend: libraryBackend(), categories });
    expect(await screen.findByText('第1页的文档')).toBeTruthy();
    expect(line().getByRole('link', { name: '全部' }).getAttribute('href')).toBe('/library/7');
    expect(chosen()).toEqual(['高中数学']);
    second.unmount();

    // A top category without any lists the top ones, and 全部 is the whole library.
    renderApp('/library/8', { backend: libraryBackend(), categories });
    expect(await screen.findByText('第1页的文档')).toBeTruthy();
    expect(line().getByRole('link', { name: '全部' }).getAttribute('href')).toBe('/library');
    expect(chosen()).toEqual(['文学小说']);
  });

  it('opens on the page the address names, and says when nothing matches', async () => {
    renderApp('/library?page=2&ext=ppt', {
      backend: { 'GET /api/v1/document/list': { status: 200, body: { total: 0 } } },
    });
    expect(await screen.findByText('暂无文档')).toBeTruthy();
    expect(screen.getByRole('link', { name: '清除筛选' }).getAttribute('href')).toBe('/library');
  });

  it('says a page past the last one does not exist, with links to the first and the last page that keep the filters', async () => {
    renderApp('/library?page=99&ext=pdf', {
      backend: { 'GET /api/v1/document/list': { status: 200, body: { total: 27 } } },
    });
    expect(await screen.findByText('没有第 99 页')).toBeTruthy();
    expect(screen.getByText('共 2 页，这一页没有文档。')).toBeTruthy();
    expect(screen.queryByText('暂无文档')).toBeNull();
    expect(screen.getByRole('link', { name: '回到第 1 页' }).getAttribute('href')).toBe('/library?ext=pdf');
    expect(screen.getByRole('link', { name: '前往最后一页（第 2 页）' }).getAttribute('href')).toBe(
      '/library?ext=pdf&page=2',
    );
  });

  it('says so for a category that does not exist', async () => {
    renderApp('/library/999');
    expect(await screen.findByText('分类不存在')).toBeTruthy();
  });
});

describe('hot documents', () => {
  it('says of an empty ranking that it is made hourly, not that nobody read anything', async () => {
    renderApp('/hot', { backend: { 'GET /api/v1/document/hot': { status: 200, body: {} } } });
    expect(await screen.findByText('暂无热门文档')).toBeTruthy();
    expect(screen.getByText('排行每小时更新一次，目前还没有上榜的文档，稍后再来看看吧。')).toBeTruthy();
  });

  it('says a page past the last one does not exist rather than that nothing is hot', async () => {
    renderApp('/hot?page=3', {
      backend: { 'GET /api/v1/document/hot': { status: 200, body: { total: 27 } } },
    });
    expect(await screen.findByText('没有第 3 页')).toBeTruthy();
    expect(screen.getByText('共 2 页，这一页没有文档。')).toBeTruthy();
    expect(screen.queryByText('暂无热门文档')).toBeNull();
    expect(screen.getByRole('link', { name: '回到第 1 页' }).getAttribute('href')).toBe('/hot');
    expect(screen.getByRole('link', { name: '前往最后一页（第 2 页）' }).getAttribute('href')).toBe('/hot?page=2');
  });
});

describe('search', () => {
  it("splits the server's highlights into text and marked matches, never HTML", () => {
    expect(highlightSegments('a <em>麒麟</em> &amp; &lt;b&gt;')).toEqual([
      { text: 'a ', match: false },
      { text: '麒麟', match: true },
      { text: ' & <b>', match: false },
    ]);
  });

  it('shows the hits with highlighted title and snippet, the count and the time taken', async () => {
    const { fetchMock, router } = renderApp('/search?wd=%E9%BA%92%E9%BA%9F', {
      backend: {
        'GET /api/v1/document/search': {
          status: 200,
          body: {
            total: 11,
            spend: '0.012',
            document: [
              { ...doc(1, '麒麟图'), title_highlight: '<em>麒麟</em>图', snippet: '…书中有一幅<em>麒麟</em>图…' },
            ],
          },
        },
      },
    });
    expect(await screen.findByText('找到约 11 条结果，用时 0.012 秒')).toBeTruthy();
    // Said aloud: the count is a live region's.
    expect(screen.getByText('找到约 11 条结果，用时 0.012 秒').getAttribute('role')).toBe('status');
    const results = screen.getByRole('region', { name: '搜索结果' });
    expect([...results.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['麒麟', '麒麟']);
    expect(
      within(results)
        .getByRole('link', { name: /麒麟\s?图/ })
        .getAttribute('href'),
    ).toBe('/library/7/1');
    const request = calls(fetchMock, '/api/v1/document/search')[0] as URL;
    expect(request.searchParams.get('wd')).toBe('麒麟');
    // The articles are searched on their own page, one link away.
    expect(screen.getByRole('link', { name: '在文章资讯中搜索“麒麟”' }).getAttribute('href')).toBe(
      '/article?wd=%E9%BA%92%E9%BA%9F',
    );

    await userEvent.click(within(screen.getByRole('group', { name: '时间' })).getByRole('link', { name: '一周内' }));
    await waitFor(() => expect(location(router)).toBe('/search?wd=%E9%BA%92%E9%BA%9F&period=week'));
    await waitFor(() =>
      expect(
        (calls(fetchMock, '/api/v1/document/search').at(-1) as URL).searchParams.getAll('created_at'),
      ).toHaveLength(1),
    );
    await userEvent.selectOptions(screen.getByLabelText('分类'), '7');
    await waitFor(() => expect(location(router)).toBe('/search?wd=%E9%BA%92%E9%BA%9F&category_id=7&period=week'));
  });

  it('keeps the category, the format and the order chosen when other words are searched, not the language or period', async () => {
    const { router } = renderApp(
      '/search?wd=%E9%BA%92%E9%BA%9F&category_id=7&ext=pdf&language=en&period=week&sort=download_count',
      {
        backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
      },
    );
    const box = within(await screen.findByRole('search', { name: '搜索文档' }));
    const input = box.getByRole('searchbox', { name: '搜索关键词' });
    await userEvent.clear(input);
    await userEvent.type(input, '星图{Enter}');
    await waitFor(() =>
      expect(location(router)).toBe('/search?wd=%E6%98%9F%E5%9B%BE&category_id=7&ext=pdf&sort=download_count'),
    );
    // The header's box on the results page keeps them as the page's own does.
    const header = within(screen.getByRole('search', { name: '站内搜索' }));
    const headerInput = header.getByRole('searchbox', { name: '搜索关键词' });
    await waitFor(() => expect(headerInput).toHaveProperty('value', '星图'));
    await userEvent.clear(headerInput);
    await userEvent.type(headerInput, '天宫{Enter}');
    await waitFor(() =>
      expect(location(router)).toBe('/search?wd=%E5%A4%A9%E5%AE%AB&category_id=7&ext=pdf&sort=download_count'),
    );
  });

  it('says a category of the address that is gone is the filter, not 全部分类, and offers to clear it', async () => {
    renderApp('/search?wd=%E9%BA%92%E9%BA%9F&category_id=999', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
    });
    expect(await screen.findByText('当前筛选条件下没有找到相关文档')).toBeTruthy();
    const select = screen.getByLabelText('分类') as HTMLSelectElement;
    expect(select.value).toBe('999');
    expect(select.selectedOptions[0]!.textContent).toBe('分类不存在或已被停用');
    expect(screen.getByRole('link', { name: '清除筛选条件' }).getAttribute('href')).toBe(
      '/search?wd=%E9%BA%92%E9%BA%9F',
    );
    // A category that is there is chosen as itself, with no such option.
    cleanup();
    renderApp('/search?wd=%E9%BA%92%E9%BA%9F&category_id=7', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
    });
    expect(await screen.findByText('当前筛选条件下没有找到相关文档')).toBeTruthy();
    expect((screen.getByLabelText('分类') as HTMLSelectElement).value).toBe('7');
    expect(screen.queryByText('分类不存在或已被停用')).toBeNull();
  });

  it("searches only the words from the header's box away from the results page", async () => {
    const { router } = renderApp('/library?ext=pdf&sort=download_count', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 0 } } },
    });
    const header = within(await screen.findByRole('search', { name: '站内搜索' }));
    await userEvent.type(header.getByRole('searchbox', { name: '搜索关键词' }), '天宫{Enter}');
    await waitFor(() => expect(location(router)).toBe('/search?wd=%E5%A4%A9%E5%AE%AB'));
  });

  it('says on which page past the free preview a document matches, with a link to the reader there', async () => {
    renderApp('/search?wd=%E9%BA%92%E9%BA%9F', {
      backend: {
        'GET /api/v1/document/search': {
          status: 200,
          body: {
            total: 2,
            document: [
              { ...doc(1, '星图笔记'), title_highlight: '星图笔记', snippet: '一份星图的介绍', match_page: 14 },
              { ...doc(2, '麒麟图'), title_highlight: '<em>麒麟</em>图', snippet: '<em>麒麟</em>图', snippet_page: 2 },
            ],
          },
        },
      },
    });
    const link = await screen.findByRole('link', { name: '第 14 页有匹配内容' });
    expect(link.getAttribute('href')).toBe('/library/7/1?page=14&wd=%E9%BA%92%E9%BA%9F');
    expect(link.parentElement!.textContent).toBe('第 14 页有匹配内容（预览范围外）');
    expect(within(link.closest('li')!).getByText('一份星图的介绍')).toBeTruthy();
    // a hit whose snippet comes from a free page says nothing of the kind
    const inside = screen.getByRole('link', { name: '第 2 页' }).closest('li')!;
    expect(within(inside).queryByText(/预览范围外/u)).toBeNull();
    expect(screen.getAllByText(/预览范围外/u)).toHaveLength(1);
  });

  it('gives the reader at a matching page past the preview the word the server found there, not the first one asked for', async () => {
    renderApp(`/search?wd=${encodeURIComponent('青鸾 麒麟')}`, {
      backend: {
        'GET /api/v1/document/search': {
          status: 200,
          body: {
            total: 2,
            document: [
              { ...doc(1, '星图笔记'), snippet: '一份星图的介绍', match_page: 14, match_words: ['麒麟'] },
              // An answer without the words (an older server): the first word asked for, as before.
              { ...doc(2, '鸾鸟图'), snippet: '鸾鸟图的介绍', match_page: 6 },
            ],
          },
        },
      },
    });
    const link = await screen.findByRole('link', { name: '第 14 页有匹配内容' });
    expect(link.getAttribute('href')).toBe(`/library/7/1?page=14&wd=${encodeURIComponent('麒麟')}`);
    expect(screen.getByRole('link', { name: '第 6 页有匹配内容' }).getAttribute('href')).toBe(
      `/library/7/2?page=6&wd=${encodeURIComponent('青鸾')}`,
    );
  });

  it('opens the reader at a matching page with the first word asked for, not the words left out or the quotes', async () => {
    renderApp(`/search?wd=${encodeURIComponent('-星图 "麒麟" 图谱')}`, {
      backend: {
        'GET /api/v1/document/search': {
          status: 200,
          body: {
            total: 2,
            document: [
              { ...doc(1, '麒麟笔记'), title_highlight: '<em>麒麟</em>笔记', snippet: '一份介绍', match_page: 14 },
              { ...doc(2, '麒麟图'), title_highlight: '<em>麒麟</em>图', snippet: '没有标记的摘要', snippet_page: 2 },
            ],
          },
        },
      },
    });
    const link = await screen.findByRole('link', { name: '第 14 页有匹配内容' });
    expect(link.getAttribute('href')).toBe(`/library/7/1?page=14&wd=${encodeURIComponent('麒麟')}`);
    expect(screen.getByRole('link', { name: '第 2 页' }).getAttribute('href')).toBe(
      `/library/7/2?page=2&wd=${encodeURIComponent('麒麟')}`,
    );
  });

  it('says a page past the last one does not exist, with links to the first and the last page of the same search', async () => {
    renderApp('/search?wd=%E5%A4%A9%E6%96%87&ext=pdf&page=9', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: { total: 25 } } },
    });
    expect(await screen.findByText('没有第 9 页')).toBeTruthy();
    expect(screen.getByText('共 3 页，这一页没有结果。')).toBeTruthy();
    expect(screen.queryByText('没有找到相关文档')).toBeNull();
    expect(screen.getByRole('link', { name: '回到第 1 页' }).getAttribute('href')).toBe(
      '/search?wd=%E5%A4%A9%E6%96%87&ext=pdf',
    );
    expect(screen.getByRole('link', { name: '前往最后一页（第 3 页）' }).getAttribute('href')).toBe(
      '/search?wd=%E5%A4%A9%E6%96%87&ext=pdf&page=3',
    );
  });

  it('says that the filters found nothing, not the words, and offers to clear them (the order kept)', async () => {
    renderApp('/search?wd=%E5%A4%A9%E6%96%87&category_id=7&ext=pdf&period=week&sort=latest', {
      backend: { 'GET /api/v1/document/search': { status: 200, body: {} } },
    });
    expect(await screen.findByText('当前筛选条件下没有找到相关文档')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('“天文”的搜索结果');
    expect(screen.queryByText(/找到约/)).toBeNull();
    expect(screen.queryByText('请检查输入是否正确，或者换一个更简短、更常用的关键词。')).toBeNull();
    expect(screen.getByRole('link', { name: '清除筛选条件' }).getAttribute('href')).toBe(
      '/search?wd=%E5%A4%A9%E6%96%87&sort=latest',
    );
    expect(screen.getByRole('link', { name: '在文章资讯中搜索“天文”' }).getAttribute('href')).toBe(
      '/article?wd=%E5%A4%A9%E6%96%87',
    );
  });

  it('says of words of punctuation alone that they hold nothing searchable, without asking the server', async () => {
    for (const wd of ['。。', '《》 —— 、']) {
      const { fetchMock, unmount } = renderApp(`/search?wd=${encodeURIComponent(wd)}`, {
        backend: { 'GET /api/v1/document/search': { status: 200, body: {} } },
      });
      expect(await screen.findByText('关键词中没有可以搜索的内容')).toBeTruthy();
      expect(screen.getByText('标点和空格无法搜索，请输入文字、字母或数字进行搜索。')).toBeTruthy();
      expect(screen.queryByText('没有找到相关文档')).toBeNull();
      expect(calls(fetchMock, '/api/v1/document/search')).toHaveLength(0);
      unmount();
    }
  });

  it('offers suggestions for an empty query and for a query without hits', async () => {
    const withWords = { ...settings, system: { ...settings.system, recommend_words: ['图书馆'] } };
    const empty = renderApp('/search', { settings: withWords });
    expect(await screen.findByText('输入关键词开始搜索')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: '图书馆' }).length).toBeGreaterThan(0);
    expect(empty.fetchMock.mock.calls.some(([url]) => String(url).includes('/document/search'))).toBe(false);
    empty.unmount();
    renderApp('/search?wd=xyz', {
      settings: withWords,
      backend: { 'GET /api/v1/document/search': { status: 200, body: {} } },
    });
    expect(await screen.findByText('没有找到相关文档')).toBeTruthy();
    expect(screen.getByText('请检查输入是否正确，或者换一个更简短、更常用的关键词。')).toBeTruthy();
    expect(
      document.querySelectorAll(
        '[data-ad-slot="search_top"], [data-ad-slot="search_bottom"], [data-ad-slot="search_right"]',
      ),
    ).toHaveLength(3);
  });

  it('tells how to leave a word out and how to ask for a phrase where a search starts and where it found nothing', async () => {
    const tip = '搜索技巧：词前加减号可排除该词，如 图书馆 -量子；词组加上引号可按完整词组搜索，如 "机器学习"。';
    const empty = renderApp('/search');
    expect(await screen.findByText('输入关键词开始搜索')).toBeTruthy();
    expect(document.querySelector('.app-search-tip')?.textContent).toBe(tip);
    empty.unmount();
    renderApp('/search?wd=xyz', { backend: { 'GET /api/v1/document/search': { status: 200, body: {} } } });
    const title = await screen.findByText('没有找到相关文档');
    expect(title.closest('.app-state')?.querySelector('.app-search-tip')?.textContent).toBe(tip);
  });

  it('gives the results the width of the side column when it would hold neither 热门搜索 nor an ad', async () => {
    const hit = { 'GET /api/v1/document/search': { status: 200, body: { total: 1, document: [doc(5, '图书馆')] } } };
    const bare = renderApp('/search?wd=图书馆', { backend: hit });
    expect(await screen.findByRole('link', { name: '图书馆' })).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: '推荐' })).toBeNull();
    expect(document.querySelector('[data-ad-slot="search_right"]')).toBeNull();
    bare.unmount();

    // An ad of the side's slot brings the column back, with the ad in it.
    const hour = 3_600_000;
    renderApp('/search?wd=图书馆', {
      backend: {
        ...hit,
        'GET /api/v1/advertisement/position': {
          status: 200,
          body: {
            advertisement: [
              {
                id: 1,
                position: 'search_right',
                content: '侧栏的广告',
                enable: true,
                start_time: new Date(Date.now() - hour).toISOString(),
                end_time: new Date(Date.now() + hour).toISOString(),
              },
            ],
          },
        },
      },
    });
    const side = await screen.findByRole('complementary', { name: '推荐' });
    expect(within(side).getByText('侧栏的广告')).toBeTruthy();
  });
});
