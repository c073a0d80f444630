// The article screens, comments, 举报 and feedback inside the real route tree, against a
// scripted backend: loading, empty and error states, the checks made before sending, and
// what each write sends.
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import userEvent from '@testing-library/user-event';
import type { Article } from '../../shared/types/article';
import type { Comment } from '../../shared/types/comment';
import type { Permission } from '../../shared/types/permission';
import { Breadcrumbs } from '../../web/src/kit/breadcrumbs/Breadcrumbs';
import { cleanPastedHtml } from '../../web/src/kit/rich-text/RichTextEditor';
import { problemsOf } from '../../web/src/features/article/ArticleForm';
import { commentThreads } from '../../web/src/features/comment/CommentSection';
import { clearSession } from '../../web/src/features/session/session-store';
import { clearToasts, toasts } from '../../web/src/kit/toasts/toast-store';
import { admin, member, holdCalls, renderApp, settings, type Backend } from './render-app';

afterEach(() =>
  act(() => {
    clearSession();
    clearToasts();
  }),
);

const about: Article = {
  id: 1,
  identifier: 'about',
  title: '关于我们',
  status: 1,
  content: '<p>本站是一个文档分享平台。</p>',
  view_count: 3,
  user: { id: 1, username: 'admin' },
  created_at: '2024-05-01T10:00:00Z',
};

/** An IntersectionObserver that reports every element it is given as in view, after the render (as a browser does). */
class InViewObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      act(() =>
        this.callback(
          [{ target, isIntersecting: true } as unknown as IntersectionObserverEntry],
          this as unknown as IntersectionObserver,
        ),
      ),
    );
  }
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

const requests = (fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(String(url), 'http://localhost').pathname === path,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body)) as Record<string, unknown>;

function articleBackend(extra: Backend = {}): Backend {
  return {
    'GET /api/v1/article': (url) =>
      url.searchParams.get('identifier') === 'about' || url.searchParams.get('id') === '1'
        ? { status: 200, body: about }
        : { status: 404, body: { code: 5, message: '文章不存在' } },
    'GET /api/v1/article/related': { status: 404, body: { code: 5, message: '相关文章不存在' } },
    'GET /api/v1/comment/list': { status: 200, body: {} },
    ...extra,
  };
}

/** The comments load as they come near the viewport: here, at once (happy-dom's observer never reports). */
function commentsInView() {
  vi.stubGlobal('IntersectionObserver', InViewObserver);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
}

/** The comment list answering the approved comments (as they are when asked), none of the member's own in review. */
/** bob's comment `id` on the article (`第<id>楼`), a reply when `parent_id` is given. */
const threadComment = (id: number, parent_id?: number): Comment => ({
  id,
  content: `第${id}楼`,
  status: 1,
  user: { id: 3, username: 'bob' },
  user_id: 3,
  document_id: 1,
  type: 1,
  ...(parent_id ? { parent_id } : {}),
});

const approvedOnly = (approved: () => Comment[]) => (url: URL) => ({
  status: 200,
  body: { comment: url.searchParams.get('user_id') ? [] : approved() },
});

describe('article list', () => {
  it('shows a skeleton while loading (never 暂无文章), then the articles with their links', async () => {
    const { fetchMock } = renderApp('/article', {
      backend: {
        'GET /api/v1/article/list': {
          status: 200,
          body: { article: [{ ...about, content: undefined, description: '一个文档分享平台' }], total: 1 },
        },
      },
    });
    // The screen is a lazy chunk: its calls go out after this, through a fetch held until released.
    const release = holdCalls(fetchMock);
    expect(await screen.findByRole('heading', { name: '文章资讯', level: 1 })).toBeTruthy();
    expect(document.querySelector('[class*="semi-skeleton"]')).not.toBeNull();
    expect(screen.queryByText('暂无文章')).toBeNull();
    release();
    const list = (await screen.findByText('一个文档分享平台')).closest('ul') as HTMLElement;
    expect(within(list).getByRole('link', { name: '关于我们' }).getAttribute('href')).toBe('/article/detail/about');
    expect(screen.getByText('3 次阅读')).toBeTruthy();
  });

  it('says when there are no articles', async () => {
    renderApp('/article', { backend: { 'GET /api/v1/article/list': { status: 200, body: {} } } });
    expect(await screen.findByText('暂无文章')).toBeTruthy();
    // No recommended article: no side box saying 暂无推荐文章 on every list.
    await waitFor(() => expect(screen.queryByRole('complementary', { name: '文章推荐' })).toBeNull());
    expect(screen.queryByRole('heading', { name: '推荐文章' })).toBeNull();
    expect(screen.queryByText('暂无推荐文章')).toBeNull();
  });

  it('says a page past the last one does not exist, with links to the first and the last page', async () => {
    renderApp('/article?page=99', {
      backend: { 'GET /api/v1/article/list': { status: 200, body: { total: 19 } } },
    });
    expect(await screen.findByText('没有第 99 页')).toBeTruthy();
    expect(screen.getByText('共 2 页，这一页没有文章。')).toBeTruthy();
    // Before, 这一页没有文章 and a pager whose 上一页 went to page 98, as empty.
    expect(screen.queryByRole('button', { name: '上一页' })).toBeNull();
    expect(screen.getByRole('link', { name: '回到第 1 页' }).getAttribute('href')).toBe('/article');
    expect(screen.getByRole('link', { name: '前往最后一页（第 2 页）' }).getAttribute('href')).toBe('/article?page=2');
  });

  it('offers 重试 when the list fails', async () => {
    renderApp('/article', {
      backend: {
        'GET /api/v1/article/list': { status: 500, body: { code: 13, message: '服务器内部错误，请稍后再试' } },
      },
    });
    // The list and the recommended articles both come from article/list: each says why it failed, with 重试.
    await waitFor(() => expect(screen.getAllByText('服务器内部错误，请稍后再试')).toHaveLength(2));
    expect(screen.getAllByRole('button', { name: '重试' })).toHaveLength(2);
  });
});

describe('article search', () => {
  it('shows the hits with their highlights, the count and the time, paged in the URL', async () => {
    const { fetchMock } = renderApp('/article?wd=%E8%BF%81%E7%A7%BB', {
      backend: {
        'GET /api/v1/article/search': {
          status: 200,
          body: {
            total: 1,
            spend: '0.004',
            article: [
              {
                id: 9,
                identifier: 'move',
                title: '数据库迁移',
                title_highlight: '数据库<em>迁移</em>',
                snippet: '…开始<em>迁移</em>…',
              },
            ],
          },
        },
        'GET /api/v1/article/list': { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('heading', { name: '搜索：迁移', level: 1 })).toBeTruthy();
    await screen.findByText('找到 1 篇相关文章，用时 0.004 秒');
    const link = document.querySelector('.app-article-list a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/article/detail/move');
    expect(link.textContent).toBe('数据库迁移');
    // Marked as the documents' hits are (HighlightedText), never inserted as HTML.
    expect([...document.querySelectorAll('.app-article-list mark.app-hit')].map((m) => m.textContent)).toEqual([
      '迁移',
      '迁移',
    ]);
    expect(document.querySelector('.app-article-list em')).toBeNull();
    const call = requests(fetchMock, 'GET', '/api/v1/article/search')[0];
    expect(new URL(String(call?.[0]), 'http://localhost').searchParams.get('wd')).toBe('迁移');
  });

  it('shows the server’s escaped highlights as text, only the matches marked', async () => {
    renderApp('/article?wd=C%2B%2B', {
      backend: {
        'GET /api/v1/article/search': {
          status: 200,
          body: {
            total: 1,
            spend: '0.003',
            article: [
              {
                id: 4,
                identifier: 'cpp',
                title: '<C++> & 模板',
                title_highlight: '&lt;<em>C++</em>&gt; &amp; 模板',
                snippet: '…写 &lt;img src=x&gt; 与 <em>C++</em>…',
              },
            ],
          },
        },
        'GET /api/v1/article/list': { status: 200, body: {} },
      },
    });
    await screen.findByText('找到 1 篇相关文章，用时 0.003 秒');
    const link = document.querySelector('.app-article-list a') as HTMLAnchorElement;
    expect(link.textContent).toBe('<C++> & 模板');
    const snippet = document.querySelector('.app-article-list__description') as HTMLElement;
    expect(snippet.textContent).toBe('…写 <img src=x> 与 C++…');
    expect(snippet.querySelector('img')).toBeNull();
    expect([...document.querySelectorAll('.app-article-list mark')].map((m) => m.textContent)).toEqual(['C++', 'C++']);
  });

  it('shows a hit without a highlighted title by its title as text, never as markup', async () => {
    renderApp('/article?wd=x', {
      backend: {
        'GET /api/v1/article/search': {
          status: 200,
          body: {
            total: 1,
            spend: '0.002',
            article: [{ id: 3, identifier: 'tags', title: '<b>标签</b> & <img src=x>' }],
          },
        },
        'GET /api/v1/article/list': { status: 200, body: {} },
      },
    });
    await screen.findByText('找到 1 篇相关文章，用时 0.002 秒');
    const link = document.querySelector('.app-article-list a') as HTMLAnchorElement;
    expect(link.textContent).toBe('<b>标签</b> & <img src=x>');
    expect(link.querySelector('b, img')).toBeNull();
  });

  it('says when nothing matches, without advising two-character words (one character is searched too), with the tip on -词 and quotes', async () => {
    renderApp('/article?wd=zzz', {
      backend: {
        'GET /api/v1/article/search': { status: 200, body: {} },
        'GET /api/v1/article/list': { status: 200, body: {} },
      },
    });
    const title = await screen.findByText('没有找到与“zzz”相关的文章');
    const empty = title.closest('.app-state')!;
    expect(empty.textContent).toContain('一个字也可以搜索');
    expect(empty.textContent).not.toMatch(/两个字|更短/);
    // The documents' search says the same of `-词` and quotes.
    expect(empty.querySelector('.app-search-tip')?.textContent).toBe(
      '搜索技巧：词前加减号可排除该词，如 图书馆 -量子；词组加上引号可按完整词组搜索，如 "机器学习"。',
    );
  });

  it('says a page past the last one does not exist, with links that keep the words', async () => {
    renderApp('/article?wd=zzz&page=9', {
      backend: {
        'GET /api/v1/article/search': { status: 200, body: { total: 25 } },
        'GET /api/v1/article/list': { status: 200, body: {} },
      },
    });
    expect(await screen.findByText('没有第 9 页')).toBeTruthy();
    expect(screen.queryByText('没有找到与“zzz”相关的文章')).toBeNull();
    expect(screen.getByRole('link', { name: '回到第 1 页' }).getAttribute('href')).toBe('/article?wd=zzz');
    expect(screen.getByRole('link', { name: '前往最后一页（第 3 页）' }).getAttribute('href')).toBe(
      '/article?wd=zzz&page=3',
    );
  });

  it('searches a category on its page, says so, and offers to search every article', async () => {
    const categories = [
      { id: 5, title: '站内公告', type: 1, enable: true, parent_id: 0 },
      { id: 6, title: '维护', type: 1, enable: true, parent_id: 5 },
      { id: 8, title: '使用帮助', type: 1, enable: true, parent_id: 0 },
    ];
    const { fetchMock, router } = renderApp('/article/5?wd=%E5%8D%87%E7%BA%A7', {
      categories,
      backend: {
        'GET /api/v1/article/list': { status: 200, body: {} },
        'GET /api/v1/article/search': { status: 200, body: {} },
      },
    });
    expect(await screen.findByRole('heading', { name: '在“站内公告”中搜索：升级', level: 1 })).toBeTruthy();
    await waitFor(() => expect(requests(fetchMock, 'GET', '/api/v1/article/search')).toHaveLength(1));
    const sent = new URL(String(requests(fetchMock, 'GET', '/api/v1/article/search')[0]?.[0]), 'http://localhost');
    expect(sent.searchParams.getAll('category_id')).toEqual(['5', '6']);
    expect(screen.getByRole('link', { name: '在全部文章中搜索“升级”' }).getAttribute('href')).toBe(
      '/article?wd=%E5%8D%87%E7%BA%A7',
    );
    // And the documents' search, for the same words (the documents' results link back).
    expect(screen.getByRole('link', { name: '在文库资料中搜索“升级”' }).getAttribute('href')).toBe(
      '/search?wd=%E5%8D%87%E7%BA%A7',
    );

    // The box of a category's page searches that category again.
    const box = screen.getByRole('search', { name: '搜索文章' });
    const input = within(box).getByRole('textbox', { name: '搜索文章' });
    await userEvent.clear(input);
    await userEvent.type(input, '公告');
    await userEvent.click(within(box).getByRole('button', { name: '搜索' }));
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe('/article/5?wd=%E5%85%AC%E5%91%8A'),
    );
  });

  it('says of words of punctuation alone that they hold nothing searchable, and neither asks nor sends them', async () => {
    const { fetchMock, router } = renderApp(`/article?wd=${encodeURIComponent('《》')}`, {
      backend: {
        'GET /api/v1/article/list': { status: 200, body: {} },
        'GET /api/v1/article/search': { status: 200, body: {} },
      },
    });
    expect(await screen.findByText('关键词中没有可以搜索的内容')).toBeTruthy();
    expect(screen.queryByText(/没有找到与/)).toBeNull();
    expect(requests(fetchMock, 'GET', '/api/v1/article/search')).toHaveLength(0);
    // The box, which holds the words, does not send them again: it says why.
    const box = screen.getByRole('search', { name: '搜索文章' });
    await userEvent.click(within(box).getByRole('button', { name: '搜索' }));
    expect(within(box).getByRole('alert').textContent).toBe('标点和空格无法搜索，请输入文字、字母或数字进行搜索。');
    expect(router.state.location.search).toBe(`?wd=${encodeURIComponent('《》')}`);
    expect(requests(fetchMock, 'GET', '/api/v1/article/search')).toHaveLength(0);
  });

  it('searches from the box', async () => {
    const { router } = renderApp('/article', {
      backend: {
        'GET /api/v1/article/list': { status: 200, body: {} },
        'GET /api/v1/article/search': { status: 200, body: {} },
      },
    });
    const box = await screen.findByRole('search', { name: '搜索文章' });
    await userEvent.type(within(box).getByRole('textbox', { name: '搜索文章' }), '公告');
    await userEvent.click(within(box).getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(router.state.location.search).toBe('?wd=%E5%85%AC%E5%91%8A'));
  });
});

describe('search box limits', () => {
  it('takes the same longest query in the header box and the article box, and says when a query was cut', async () => {
    const { router } = renderApp('/article', {
      backend: {
        'GET /api/v1/article/list': { status: 200, body: {} },
        'GET /api/v1/document/search': { status: 200, body: {} },
      },
    });
    const long = '天文'.repeat(60);
    const articleBox = within(await screen.findByRole('search', { name: '搜索文章' }));
    const articleInput = articleBox.getByRole('textbox', { name: '搜索文章' }) as HTMLInputElement;
    const header = within(screen.getByRole('search', { name: '站内搜索' }));
    const headerInput = header.getByRole('searchbox', { name: '搜索关键词' }) as HTMLInputElement;
    expect(screen.queryByText(/关键词最多/)).toBeNull();

    await userEvent.click(articleInput);
    await userEvent.paste(long);
    expect(articleInput.value).toBe(long.slice(0, 100));
    expect(screen.getByText('关键词最多 100 个字，超出的部分不会输入')).toBeTruthy();

    await userEvent.click(headerInput);
    await userEvent.paste(long);
    expect(headerInput.value).toBe(long.slice(0, 100));
    expect(screen.getAllByText('关键词最多 100 个字，超出的部分不会输入')).toHaveLength(2);
    await userEvent.click(header.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(new URLSearchParams(router.state.location.search).get('wd')).toBe(long.slice(0, 100));
  });

  it('says nothing of the limit when exactly 100 characters are typed or pasted, only once more is cut off', async () => {
    renderApp('/article', {
      backend: {
        'GET /api/v1/article/list': { status: 200, body: {} },
        'GET /api/v1/document/search': { status: 200, body: {} },
      },
    });
    const articleInput = within(await screen.findByRole('search', { name: '搜索文章' })).getByRole('textbox', {
      name: '搜索文章',
    }) as HTMLInputElement;
    const headerInput = within(screen.getByRole('search', { name: '站内搜索' })).getByRole('searchbox', {
      name: '搜索关键词',
    }) as HTMLInputElement;
    const notes = () => screen.queryAllByText('关键词最多 100 个字，超出的部分不会输入').length;
    for (const input of [articleInput, headerInput]) {
      await userEvent.click(input);
      await userEvent.paste('天文'.repeat(49));
      await userEvent.type(input, '星云');
      expect(input.value).toHaveLength(100);
      expect(notes()).toBe(0);
      // One more character is not taken: that is said, until the query is shortened.
      await userEvent.type(input, '团');
      expect(input.value).toHaveLength(100);
      expect(notes()).toBe(1);
      await userEvent.type(input, '{Backspace}');
      expect(notes()).toBe(0);
      await userEvent.clear(input);
      await userEvent.paste('天文'.repeat(50));
      expect(input.value).toHaveLength(100);
      expect(notes()).toBe(0);
      await userEvent.clear(input);
    }
  });
});

describe('article page', () => {
  it('shows /article/about (no such category) as the article whose identifier is about, titled after it', async () => {
    renderApp('/article/about', { backend: articleBackend() });
    expect(await screen.findByRole('heading', { name: '关于我们', level: 1 })).toBeTruthy();
    expect(screen.getByText('本站是一个文档分享平台。').tagName).toBe('P');
    await waitFor(() => expect(document.title).toBe('关于我们 - 测试文库'));
    // The comments' code arrives apart, a skeleton meanwhile.
    await waitFor(() => expect(screen.getByRole('region', { name: /评论/ }).getAttribute('aria-busy')).toBeNull());
    const comments = screen.getByRole('region', { name: /评论/ });
    expect(within(comments).getByRole('link', { name: '登录' }).getAttribute('href')).toBe(
      '/auth/login?redirect=%2Farticle%2Fabout',
    );
  });

  it('links each of its keywords under the byline to the article search for it', async () => {
    renderApp('/article/detail/about', {
      backend: articleBackend({
        'GET /api/v1/article': { status: 200, body: { ...about, keywords: '文库, 分享，文库,' } },
      }),
    });
    const line = (await screen.findByText('关键词：')).parentElement as HTMLElement;
    expect(
      within(line)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['文库', `/article?wd=${encodeURIComponent('文库')}`],
      ['分享', `/article?wd=${encodeURIComponent('分享')}`],
    ]);
  });

  it('tells a visitor sent to the login page by the article’s 收藏 or 举报, the comments’ 登录 or a comment’s 举报 what the login is for', async () => {
    commentsInView();
    const comment: Comment = {
      id: 9,
      content: '写得很清楚',
      status: 1,
      user: { id: 3, username: 'bob' },
      user_id: 3,
      document_id: 1,
      type: 1,
    };
    const { router } = renderApp('/article/detail/about', {
      backend: articleBackend({ 'GET /api/v1/comment/list': approvedOnly(() => [comment]) }),
    });
    // Looked up at each turn: the page comes back anew after the login page.
    const article = async () => screen.findByRole('article');
    const comments = async () => screen.findByRole('region', { name: /评论/ });
    const links: [() => Promise<HTMLElement>, string][] = [
      [async () => within(await article()).getByRole('link', { name: '收藏' }), '登录后即可收藏该文章'],
      [async () => within(await article()).getAllByRole('link', { name: '举报' })[0]!, '登录后即可举报该文章'],
      [async () => within(await comments()).getByRole('link', { name: '登录' }), '登录后即可发表评论'],
      // bob's comment's: the section holds no other.
      [
        async () => (await within(await comments()).findAllByRole('link', { name: '举报' }))[0]!,
        '登录后即可举报该评论',
      ],
    ];
    for (const [link, reason] of links) {
      await userEvent.click(await link());
      expect(await screen.findByText(reason)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/auth/login');
      expect(router.state.location.search).toBe('?redirect=%2Farticle%2Fdetail%2Fabout');
      await act(() => router.navigate(-1));
      expect(await screen.findByRole('heading', { name: '关于我们', level: 1 })).toBeTruthy();
    }
  });

  it('adds the article to the favourites once on a double tap of 收藏', async () => {
    let favorite: { id?: number } = {};
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/favorite': () => ({ status: 200, body: favorite }),
        'POST /api/v1/favorite': () => {
          if (favorite.id) return { status: 409, body: { code: 6, message: '您已经收藏过了' } };
          favorite = { id: 77 };
          return { status: 200, body: favorite };
        },
      }),
    });
    const button = await screen.findByRole('button', { name: '收藏' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    const release = holdCalls(fetchMock, (url) => url.pathname === '/api/v1/favorite');
    await userEvent.setup({ delay: null }).dblClick(button);
    release();
    expect(await screen.findByRole('button', { name: '已收藏' })).toBeTruthy();
    await waitFor(() => expect(toasts.value.map((t) => t.title)).toEqual(['收藏成功']));
    expect(requests(fetchMock, 'POST', '/api/v1/favorite')).toHaveLength(1);
  });

  it('adds the article to the member’s favourites and takes it out again', async () => {
    let favorite: { id?: number } = {};
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/favorite': () => ({ status: 200, body: favorite }),
        'POST /api/v1/favorite': () => {
          favorite = { id: 77 };
          return { status: 200, body: favorite };
        },
        'DELETE /api/v1/favorite': () => {
          favorite = {};
          return { status: 200, body: {} };
        },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '收藏' }));
    expect(await screen.findByRole('button', { name: '已收藏' })).toBeTruthy();
    await waitFor(() => expect(toasts.value.map((t) => t.title)).toEqual(['收藏成功']));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/favorite')[0])).toEqual({ document_id: 1, type: 1 });
    await userEvent.click(screen.getByRole('button', { name: '已收藏' }));
    expect(await screen.findByRole('button', { name: '收藏' })).toBeTruthy();
    await waitFor(() => expect(toasts.value.map((t) => t.title)).toEqual(['收藏成功', '已取消收藏']));
    expect(
      new URL(String(requests(fetchMock, 'DELETE', '/api/v1/favorite')[0]?.[0]), 'http://localhost').searchParams.get(
        'id',
      ),
    ).toBe('77');
  });

  it('moves an article opened under a category it is not in to its own, with its own breadcrumb', async () => {
    const categories = [
      { id: 5, title: '站内公告', type: 1, enable: true, parent_id: 0 },
      { id: 6, title: '使用帮助', type: 1, enable: true, parent_id: 0 },
    ];
    const notice: Article = { ...about, id: 9, identifier: 'notice', title: '维护公告', category_id: [5] };
    const { router } = renderApp('/article/6/detail/notice', {
      categories,
      backend: articleBackend({ 'GET /api/v1/article': { status: 200, body: notice } }),
    });
    expect(await screen.findByRole('heading', { name: '维护公告', level: 1 })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/article/5/detail/notice'));
    const trail = screen.getByRole('navigation', { name: '当前位置' });
    expect(within(trail).getByRole('link', { name: '站内公告' }).getAttribute('href')).toBe('/article/5');
    expect(within(trail).queryByRole('link', { name: '使用帮助' })).toBeNull();
  });

  it('files the article in the breadcrumbs the other screens use: 首页 / 文章资讯 / its categories', async () => {
    const categories = [
      { id: 5, title: '站内公告', type: 1, enable: true, parent_id: 0 },
      { id: 8, title: '维护', type: 1, enable: true, parent_id: 5 },
    ];
    const notice: Article = { ...about, id: 9, identifier: 'notice', title: '维护公告', category_id: [8] };
    renderApp('/article/8/detail/notice', {
      categories,
      backend: articleBackend({ 'GET /api/v1/article': { status: 200, body: notice } }),
    });
    expect(await screen.findByRole('heading', { name: '维护公告', level: 1 })).toBeTruthy();
    const shared = render(
      <MemoryRouter>
        <Breadcrumbs
          crumbs={[
            { label: '首页', to: '/' },
            { label: '文章资讯', to: '/article' },
            { label: '站内公告', to: '/article/5' },
            { label: '维护', to: '/article/8' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('navigation', { name: '当前位置' })[0]!.outerHTML).toBe(shared.container.innerHTML);
  });

  it('says when an article does not exist', async () => {
    renderApp('/article/detail/gone', { backend: articleBackend() });
    expect(await screen.findByText('文章不存在')).toBeTruthy();
    expect(screen.getByRole('link', { name: '看看其他文章' })).toBeTruthy();
  });

  it('shows the reader’s own comments in review as 审核中, beside the approved ones', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    const mine: Comment[] = [
      { id: 11, content: '我的看法', status: 0, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': (url) => ({
          status: 200,
          body: { comment: url.searchParams.get('user_id') === '2' ? mine : approved },
        }),
      }),
    });
    const own = (await screen.findByText('我的看法')).closest('.app-comment') as HTMLElement;
    expect(within(own).getByText('审核中')).toBeTruthy();
    // Semi's Tag is a <div>: the comment's head holding it is no <p> (React warns of one there).
    expect(within(own).getByText('审核中').closest('p')).toBeNull();
    expect(within(own).getByRole('button', { name: '删除' })).toBeTruthy();
    const other = screen.getByText('写得好').closest('.app-comment') as HTMLElement;
    expect(within(other).queryByText('审核中')).toBeNull();
    expect(within(other).getByRole('button', { name: '回复' })).toBeTruthy();
  });

  it('tells a member barred from commenting why, in place of the comment box, and offers no 回复', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': approvedOnly(() => approved),
        'GET /api/v1/user/canicomment': { status: 403, body: { code: 7, message: '您已被禁止评论，原因：发布广告' } },
      }),
    });
    await screen.findByText('写得好');
    const comments = screen.getByRole('region', { name: /评论/ });
    expect((await within(comments).findByRole('status')).textContent).toBe('您已被禁止评论，原因：发布广告');
    expect(within(comments).queryByRole('textbox')).toBeNull();
    expect(within(comments).queryByRole('button', { name: '发表评论' })).toBeNull();
    const other = within(comments).getByText('写得好').closest('.app-comment') as HTMLElement;
    expect(within(other).queryByRole('button', { name: '回复' })).toBeNull();
  });

  it('replaces the comment box with the reason when a comment is refused because the member was barred meanwhile', async () => {
    commentsInView();
    let barred = false;
    const refusal = { code: 7, message: '您已被禁止评论，原因：发布广告' };
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/user/canicomment': () => (barred ? { status: 403, body: refusal } : { status: 200, body: {} }),
        'POST /api/v1/comment': () => {
          barred = true;
          return { status: 403, body: refusal };
        },
      }),
    });
    await userEvent.type(await screen.findByRole('textbox'), '我的看法');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    const comments = screen.getByRole('region', { name: /评论/ });
    expect((await within(comments).findByRole('status')).textContent).toBe(refusal.message);
    expect(within(comments).queryByRole('textbox')).toBeNull();
  });

  it('heads the comments with the public count and says how many of the reader’s own listed ones wait for review', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    const mine: Comment[] = [
      { id: 11, content: '第一条', status: 0, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
      { id: 12, content: '第二条', status: 0, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
      { id: 13, content: '第三条', status: 2, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': (url) => ({
          status: 200,
          body: { comment: url.searchParams.get('user_id') === '2' ? mine : approved },
        }),
      }),
    });
    expect(await screen.findByText('第二条')).toBeTruthy();
    expect(screen.getAllByText('审核中')).toHaveLength(2);
    const heading = await screen.findByRole('heading', { name: /^评论（1）/ });
    expect(heading.textContent).toBe('评论（1）（另有 2 条待审核、1 条未通过审核）');
  });

  it('lists the member’s newest own comments in review when they have more than the 1,000 the list gives', async () => {
    commentsInView();
    // 1,001 comments of amy's, approved but the newest, in review; the list gives 1,000 in the order asked.
    const mine: Comment[] = Array.from({ length: 1001 }, (_, i) => ({
      id: i + 1,
      content: i === 1000 ? '刚写的评论' : `第${i + 1}条`,
      status: i === 1000 ? 0 : 1,
      user: { id: 2, username: 'amy' },
      user_id: 2,
      document_id: 1,
      type: 1,
    }));
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': (url) => {
          if (url.searchParams.get('user_id') !== '2') return { status: 200, body: {} };
          const ordered = url.searchParams.get('order') === 'id desc' ? [...mine].reverse() : mine;
          return { status: 200, body: { comment: ordered.slice(0, 1000), total: mine.length } };
        },
      }),
    });
    const own = (await screen.findByText('刚写的评论')).closest('.app-comment') as HTMLElement;
    expect(within(own).getByText('审核中')).toBeTruthy();
  });

  it('shows the newest 20 threads, then 20 more at each 查看更多评论, and asks for the newest comments first', async () => {
    commentsInView();
    const approved: Comment[] = Array.from({ length: 45 }, (_, i) => ({
      id: 100 - i,
      content: `第${100 - i}楼`,
      status: 1,
      user: { id: 3, username: 'bob' },
      user_id: 3,
      document_id: 1,
      type: 1,
    }));
    const { fetchMock } = renderApp('/article/detail/about', {
      backend: articleBackend({ 'GET /api/v1/comment/list': { status: 200, body: { comment: approved } } }),
    });
    expect(await screen.findByText('第100楼')).toBeTruthy();
    const shown = () => document.querySelectorAll('.app-comments__thread').length;
    expect(shown()).toBe(20);
    expect(screen.queryByText('第80楼')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '查看更多评论（还有 25 条）' }));
    expect(shown()).toBe(40);
    // The keyboard goes to the first thread shown (before the button: the next Tab would skip them).
    expect(document.activeElement?.textContent).toContain('第80楼');
    screen.getByRole('button', { name: '查看更多评论（还有 5 条）' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(shown()).toBe(45);
    expect(screen.queryByRole('button', { name: /查看更多评论/ })).toBeNull();
    // The button gone, the focus is on the first thread it showed, not on <body>.
    expect(document.activeElement?.textContent).toContain('第60楼');
    const list = requests(fetchMock, 'GET', '/api/v1/comment/list')[0]!;
    expect(new URL(String(list[0]), 'http://localhost').searchParams.get('order')).toBe('id desc');
  });

  it('opens a link to a comment (a message’s) with its thread shown, past the first 20, marked and scrolled to', async () => {
    commentsInView();
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    onTestFinished(() => scrollIntoView.mockRestore());
    // 45 threads, newest first: thread 23 (the top comment 23) holds the reply 201 the link names.
    const tops = Array.from({ length: 45 }, (_, i) => threadComment(i + 1));
    renderApp('/article/detail/about#comment-201', {
      backend: articleBackend({
        'GET /api/v1/comment/list': { status: 200, body: { comment: [...tops, threadComment(201, 23)].reverse() } },
      }),
    });
    const reply = (await screen.findByText('第201楼')).closest('.app-comment')!;
    expect(reply.id).toBe('comment-201');
    expect(reply.classList.contains('app-comment--marked')).toBe(true);
    expect(document.querySelectorAll('.app-comment--marked')).toHaveLength(1);
    // The 20 threads of its step are shown with it; 查看更多评论 goes on from there.
    expect(document.querySelectorAll('.app-comments__thread')).toHaveLength(40);
    expect(screen.getByRole('button', { name: '查看更多评论（还有 5 条）' })).toBeTruthy();
    await waitFor(() => expect(scrolled.at(-1)).toBe(reply));
  });

  it('lights up a linked comment as the link is followed, not on Back or Forward to it, where the page is where it was left', async () => {
    commentsInView();
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    onTestFinished(() => scrollIntoView.mockRestore());
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    const { router } = renderApp('/article/detail/other', {
      backend: articleBackend({ 'GET /api/v1/comment/list': approvedOnly(() => approved) }),
    });
    expect(await screen.findByText('文章不存在')).toBeTruthy();
    const linked = async () => (await screen.findByText('写得好')).closest('.app-comment')!;
    await act(() => router.navigate('/article/detail/about#comment-10'));
    const first = await linked();
    expect(first.classList.contains('app-comment--marked')).toBe(true);
    await waitFor(() => expect(scrolled.at(-1)).toBe(first));

    const go = (to: string | number) => (typeof to === 'number' ? router.navigate(to) : router.navigate(to));
    // Back to the other article, then Forward to the link; then on to the other one, and Back to the link.
    for (const [away, to, name] of [
      [-1, 1, 'forward'],
      ['/article/detail/other', -1, 'back'],
    ] as const) {
      await act(() => go(away));
      expect(await screen.findByText('文章不存在')).toBeTruthy();
      scrolled.length = 0;
      await act(() => go(to));
      const again = await linked();
      expect(again.classList.contains('app-comment--marked'), name).toBe(false);
      expect(scrolled, name).toEqual([]);
    }
    // Followed again (a link), it is lit up again.
    await act(() => router.navigate('/article/detail/other'));
    await act(() => router.navigate('/article/detail/about#comment-10'));
    expect((await linked()).classList.contains('app-comment--marked')).toBe(true);
  });

  it('opens a link to the member’s own rejected comment (listed to them only) at it, marked', async () => {
    commentsInView();
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    onTestFinished(() => scrollIntoView.mockRestore());
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    const mine: Comment[] = [
      { id: 11, content: '我的看法', status: 2, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about#comment-11', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': (url) => ({
          status: 200,
          body: { comment: url.searchParams.get('user_id') === '2' ? mine : approved },
        }),
      }),
    });
    const own = (await screen.findByText('我的看法')).closest('.app-comment')!;
    expect(within(own as HTMLElement).getByText('未通过审核')).toBeTruthy();
    expect(own.classList.contains('app-comment--marked')).toBe(true);
    await waitFor(() => expect(scrolled.at(-1)).toBe(own));
  });

  it('opens a link to a comment deleted since at the comments, without a word of error', async () => {
    commentsInView();
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    onTestFinished(() => scrollIntoView.mockRestore());
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about#comment-9', {
      backend: articleBackend({ 'GET /api/v1/comment/list': approvedOnly(() => approved) }),
    });
    expect(await screen.findByText('写得好')).toBeTruthy();
    const section = screen.getByRole('region', { name: /评论/ });
    await waitFor(() => expect(scrolled.at(-1)).toBe(section));
    expect(document.querySelector('.app-comment--marked')).toBeNull();
    expect(screen.queryByText('评论加载失败')).toBeNull();
    expect(toasts.value).toEqual([]);
  });

  it('counts the comments left under 查看更多评论 as the heading does, replies included, not the threads', async () => {
    commentsInView();
    // 22 threads: the two oldest, not shown at first, hold 1 and 1 + 8 replies, so 10 comments in 2 threads.
    const tops = Array.from({ length: 22 }, (_, i) => threadComment(i + 1));
    const replies = Array.from({ length: 8 }, (_, i) => threadComment(101 + i, 1));
    renderApp('/article/detail/about', {
      backend: articleBackend({
        'GET /api/v1/comment/list': { status: 200, body: { comment: [...tops, ...replies].reverse() } },
      }),
    });
    expect(await screen.findByRole('heading', { name: '评论（30）' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '查看更多评论（还有 10 条）' }));
    expect(screen.getByText('第108楼')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /查看更多评论/ })).toBeNull();
  });

  it('counts the 回复 @name： of a reply to a reply towards the limit, and sends it before the words', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, user_id: 3, document_id: 1, type: 1 },
      {
        id: 11,
        parent_id: 10,
        content: '同感',
        status: 1,
        user: { id: 4, username: 'carol' },
        user_id: 4,
        document_id: 1,
        type: 1,
      },
    ];
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': approvedOnly(() => approved),
        'POST /api/v1/comment': { status: 200, body: { id: 12, content: '回复 @carol：是的', status: 0 } },
      }),
    });
    const reply = (await screen.findByText('同感')).closest('.app-comment') as HTMLElement;
    await userEvent.click(within(reply).getByRole('button', { name: '回复' }));
    const box = await screen.findByLabelText('回复 @carol');
    const send = () => userEvent.click(within(box.closest('form')!).getByRole('button', { name: '回复' }));
    // 回复 @carol： is 10 characters of the 1,000.
    expect(screen.getByText('0 / 990')).toBeTruthy();
    await userEvent.click(box);
    await userEvent.paste('长'.repeat(991));
    await send();
    expect(await screen.findByText('评论内容长度不能超过 990 个字符')).toBeTruthy();
    expect(requests(fetchMock, 'POST', '/api/v1/comment')).toHaveLength(0);
    await userEvent.clear(box);
    await userEvent.type(box, '是的');
    await send();
    await waitFor(() => expect(requests(fetchMock, 'POST', '/api/v1/comment')).toHaveLength(1));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/comment')[0])).toMatchObject({
      parent_id: 11,
      content: '回复 @carol：是的',
    });
  });

  it('takes the keyboard into a reply box under 回复 and back to 回复 when it is cancelled', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 10, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, user_id: 3, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': approvedOnly(() => approved),
      }),
    });
    const comment = (await screen.findByText('写得好')).closest('.app-comment') as HTMLElement;
    const reply = within(comment).getByRole('button', { name: '回复' });
    reply.focus();
    await userEvent.keyboard('{Enter}');
    const box = await screen.findByLabelText('回复 @bob');
    expect(reply.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(box));
    within(box.closest('form')!).getByRole('button', { name: '取消' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByLabelText('回复 @bob')).toBeNull();
    expect(document.activeElement).toBe(within(comment).getByRole('button', { name: '回复' }));
  });

  it('warns before deleting one’s own comment that the replies under it go with it', async () => {
    commentsInView();
    const approved: Comment[] = [
      { id: 20, content: '我的评论', status: 1, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
      { id: 21, parent_id: 20, content: '回一句', status: 1, user: { id: 3, username: 'bob' }, user_id: 3 },
      { id: 22, parent_id: 20, content: '再回一句', status: 1, user: { id: 4, username: 'carol' }, user_id: 4 },
      { id: 23, content: '另一条', status: 1, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
    ];
    renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': approvedOnly(() => approved),
      }),
    });
    const own = (await screen.findByText('我的评论')).closest('.app-comment') as HTMLElement;
    await userEvent.click(within(own).getByRole('button', { name: '删除' }));
    expect(within(own).getByText('确定删除？其下的 2 条回复也会一起删除。')).toBeTruthy();
    const alone = screen.getByText('另一条').closest('.app-comment') as HTMLElement;
    await userEvent.click(within(alone).getByRole('button', { name: '删除' }));
    expect(within(alone).getByText('确定删除？')).toBeTruthy();
  });

  it('checks a comment before sending it, then sends it with the target', async () => {
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'POST /api/v1/comment': { status: 200, body: { id: 12, content: '很实用', status: 0 } },
      }),
    });
    const box = await screen.findByLabelText('发表评论');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    expect(await screen.findByText('评论内容不能为空')).toBeTruthy();
    await userEvent.type(box, '很实用');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '评论已提交')).toBe(true));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/comment')[0])).toEqual({
      type: 1,
      document_id: 1,
      content: '很实用',
    });
  });

  it('describes the comment box by its count of characters, which is no live region read over each one typed', async () => {
    renderApp('/article/detail/about', { user: member, backend: articleBackend() });
    const box = await screen.findByLabelText('发表评论');
    await userEvent.type(box, '很实用');
    const count = screen.getByText('3 / 1000');
    expect(count.closest('[aria-live], [role="status"], [role="alert"], [role="log"]')).toBeNull();
    expect((box.getAttribute('aria-describedby') ?? '').split(' ')).toContain(count.id);
  });

  it('keeps a comment being written while the reader is elsewhere, until it is sent', async () => {
    const backend = articleBackend({
      'POST /api/v1/comment': { status: 200, body: { id: 12, content: '写到一半', status: 0 } },
    });
    const { router } = renderApp('/article/detail/about', { user: member, backend });
    await userEvent.type(await screen.findByLabelText('发表评论'), '写到一半');
    await act(() => router.navigate('/article/detail/other'));
    expect(await screen.findByText('文章不存在')).toBeTruthy();
    await act(() => router.navigate(-1));
    const box = await screen.findByLabelText<HTMLTextAreaElement>('发表评论');
    expect(box.value).toBe('写到一半');
    // The page drawn anew in the same tab (a reload) finds it too.
    cleanup();
    renderApp('/article/detail/about', { user: member, backend });
    expect((await screen.findByLabelText<HTMLTextAreaElement>('发表评论')).value).toBe('写到一半');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '评论已提交')).toBe(true));
    expect(screen.getByLabelText<HTMLTextAreaElement>('发表评论').value).toBe('');
    cleanup();
    renderApp('/article/detail/about', { user: member, backend });
    expect((await screen.findByLabelText<HTMLTextAreaElement>('发表评论')).value).toBe('');
  });

  it('keeps the draft of each article and of each reader apart, and forgets one emptied', async () => {
    const backend = articleBackend();
    renderApp('/article/detail/about', { user: member, backend });
    await userEvent.type(await screen.findByLabelText('发表评论'), '草稿');
    cleanup();
    renderApp('/article/detail/about', { user: { ...member, id: 99, username: 'other' }, backend });
    expect((await screen.findByLabelText<HTMLTextAreaElement>('发表评论')).value).toBe('');
    cleanup();
    renderApp('/article/detail/about', { user: member, backend });
    const box = await screen.findByLabelText<HTMLTextAreaElement>('发表评论');
    expect(box.value).toBe('草稿');
    await userEvent.clear(box);
    cleanup();
    renderApp('/article/detail/about', { user: member, backend });
    expect((await screen.findByLabelText<HTMLTextAreaElement>('发表评论')).value).toBe('');
    expect(sessionStorage.length).toBe(0);
  });

  it('keeps the byline’s comment count with the approved comments, without reading the article again', async () => {
    commentsInView();
    let approved: Comment[] = [
      { id: 5, content: '写得好', status: 1, user: { id: 3, username: 'bob' }, user_id: 3, document_id: 1, type: 1 },
    ];
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/article': { status: 200, body: { ...about, comment_count: 1 } },
        'GET /api/v1/comment/list': approvedOnly(() => approved),
        'POST /api/v1/comment': () => {
          const created = {
            id: 12,
            content: '很实用',
            status: 1,
            user: { id: 2, username: 'amy' },
            user_id: 2,
            document_id: 1,
            type: 1,
          };
          approved = [...approved, created];
          return { status: 200, body: created };
        },
      }),
    });
    expect(await screen.findByText('1 条评论')).toBeTruthy();
    await userEvent.type(await screen.findByLabelText('发表评论'), '很实用');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    expect(await screen.findByText('2 条评论')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '评论（2）' })).toBeTruthy();
    expect(requests(fetchMock, 'GET', '/api/v1/article')).toHaveLength(1);
    // Only approved comments are asked for (an admin would otherwise get rejected ones too).
    const publicLists = requests(fetchMock, 'GET', '/api/v1/comment/list').map(
      ([url]) => new URL(String(url), 'http://localhost').searchParams,
    );
    expect(publicLists.filter((q) => !q.get('user_id')).every((q) => q.getAll('status').join() === '1')).toBe(true);
  });

  it('names the limit of an over-long comment without sending it', async () => {
    const { fetchMock } = renderApp('/article/detail/about', { user: member, backend: articleBackend() });
    const box = await screen.findByLabelText('发表评论');
    act(() => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setValue?.call(box, '长'.repeat(1001));
      box.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    expect(await screen.findByText('评论内容长度不能超过 1000 个字符')).toBeTruthy();
    expect(requests(fetchMock, 'POST', '/api/v1/comment')).toHaveLength(0);
  });

  it('after a wrong captcha empties the captcha field for the new image', async () => {
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      settings: { ...settings, security: { ...settings.security, enable_captcha_comment: true } },
      backend: articleBackend({
        'GET /api/v1/user/captcha': {
          status: 200,
          body: { enable: true, id: 'cap-1', captcha: 'data:image/png;base64,AA==', type: 'digit' },
        },
        'POST /api/v1/comment': { status: 400, body: { code: 3, message: '验证码错误' } },
      }),
    });
    await userEvent.type(await screen.findByLabelText('发表评论'), '很实用');
    const captcha = await screen.findByLabelText<HTMLInputElement>('验证码');
    await userEvent.type(captcha, '9999');
    await userEvent.click(screen.getByRole('button', { name: '发表评论' }));
    await waitFor(() => expect(toasts.value.some((t) => t.description === '验证码错误')).toBe(true));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/comment')[0])).toMatchObject({
      captcha: '9999',
      captcha_id: 'cap-1',
    });
    await waitFor(() => expect(requests(fetchMock, 'GET', '/api/v1/user/captcha')).toHaveLength(2));
    expect(captcha.value).toBe('');
    expect((screen.getByLabelText('发表评论') as HTMLTextAreaElement).value).toBe('很实用');
  });

  it('deletes one’s own comment only once 确定 confirms it', async () => {
    commentsInView();
    const mine: Comment[] = [
      { id: 11, content: '我的看法', status: 1, user: { id: 2, username: 'amy' }, user_id: 2, document_id: 1, type: 1 },
    ];
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      backend: articleBackend({
        'GET /api/v1/comment/list': { status: 200, body: { comment: mine } },
        'DELETE /api/v1/comment': { status: 200, body: {} },
      }),
    });
    const own = (await screen.findByText('我的看法')).closest('.app-comment') as HTMLElement;
    await userEvent.click(within(own).getByRole('button', { name: '删除' }));
    expect(within(own).getByRole('group', { name: '确定删除？' })).toBeTruthy();
    await userEvent.click(within(own).getByRole('button', { name: '取消' }));
    expect(requests(fetchMock, 'DELETE', '/api/v1/comment')).toHaveLength(0);
    await userEvent.click(within(own).getByRole('button', { name: '删除' }));
    await userEvent.click(within(own).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '评论已删除')).toBe(true));
    const [deleted] = requests(fetchMock, 'DELETE', '/api/v1/comment');
    expect(new URL(String(deleted?.[0]), 'http://localhost').searchParams.getAll('id')).toEqual(['11']);
  });
});

describe('上一篇 / 下一篇 and sharing', () => {
  const categories = [{ id: 5, title: '站内公告', type: 1, enable: true, parent_id: 0 }];
  const notice: Article = { ...about, id: 9, identifier: 'notice', title: '维护公告', category_id: [5] };
  const newer: Article = {
    id: 12,
    identifier: 'newer',
    title: '一个很长很长的标题，在手机上要换行显示而不撑出页面的新版本发布公告',
    status: 1,
    category_id: [5],
  };

  it('links 上一篇 and 下一篇 of the article’s category under that category, 没有了 at the end of the list', async () => {
    const { fetchMock } = renderApp('/article/5/detail/notice', {
      categories,
      backend: articleBackend({
        'GET /api/v1/article': { status: 200, body: notice },
        'GET /api/v1/article/neighbours': { status: 200, body: { previous: newer } },
      }),
    });
    const links = await screen.findByRole('navigation', { name: '上一篇和下一篇' });
    expect(within(links).getByRole('link', { name: newer.title! }).getAttribute('href')).toBe(
      '/article/5/detail/newer',
    );
    expect(links.textContent).toBe(`上一篇：《${newer.title}》下一篇：没有了`);
    const asked = new URL(String(requests(fetchMock, 'GET', '/api/v1/article/neighbours')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(asked.searchParams)).toEqual({ identifier: 'notice', category_id: '5' });
  });

  it('shows neither link where the backend has no such call (MOREDOC answers 404), and no error', async () => {
    const { fetchMock } = renderApp('/article/5/detail/notice', {
      categories,
      backend: articleBackend({ 'GET /api/v1/article': { status: 200, body: notice } }),
    });
    expect(await screen.findByRole('heading', { name: '维护公告', level: 1 })).toBeTruthy();
    await waitFor(() => expect(requests(fetchMock, 'GET', '/api/v1/article/neighbours')).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: '复制链接' })).toBeTruthy());
    expect(screen.queryByRole('navigation', { name: '上一篇和下一篇' })).toBeNull();
    expect(screen.queryByText(/上一篇|下一篇/)).toBeNull();
    expect(toasts.value).toEqual([]);
  });

  it('copies the article’s canonical address and says 链接已复制', async () => {
    const writeText = vi.fn(async (_text: string) => {});
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(writeText);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    renderApp('/article/5/detail/notice', {
      categories,
      backend: articleBackend({ 'GET /api/v1/article': { status: 200, body: notice } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: '复制链接' }));
    const address = `${window.location.origin}/article/detail/notice`;
    expect(writeText).toHaveBeenCalledWith(address);
    await waitFor(() => expect(toasts.value.map((t) => [t.title, t.description])).toEqual([['链接已复制', address]]));
  });

  it('says in Chinese when the browser refuses the clipboard, and shows the address to copy by hand', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    renderApp('/article/detail/about', { backend: articleBackend() });
    await userEvent.click(await screen.findByRole('button', { name: '复制链接' }));
    await waitFor(() =>
      expect(toasts.value.map((t) => [t.title, t.description])).toEqual([['浏览器未允许复制', '请复制下方链接分享']]),
    );
    expect((screen.getByRole('textbox', { name: '分享链接' }) as HTMLInputElement).value).toBe(
      `${window.location.origin}/article/detail/about`,
    );
  });

  it('offers 分享 through the system’s share sheet on a phone whose browser has it, not elsewhere', async () => {
    const share = vi.fn(async (_data: ShareData) => {});
    Object.defineProperty(navigator, 'share', { value: share, configurable: true });
    onTestFinished(() => {
      delete (navigator as { share?: unknown }).share;
      vi.unstubAllGlobals();
    });
    const phone = (matches: boolean) =>
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: matches && query.includes('640px'), media: query }));
    phone(false);
    renderApp('/article/detail/about', { backend: articleBackend() });
    expect(await screen.findByRole('button', { name: '复制链接' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '分享' })).toBeNull();
    cleanup();

    phone(true);
    renderApp('/article/detail/about', { backend: articleBackend() });
    await userEvent.click(await screen.findByRole('button', { name: '分享' }));
    expect(share).toHaveBeenCalledWith({ title: '关于我们', url: `${window.location.origin}/article/detail/about` });
    expect(toasts.value).toEqual([]);
  });
});

describe('举报 an article, by keyboard', () => {
  it('takes the keyboard to the reasons when 提交举报 is refused, the message tied to them', async () => {
    renderApp('/article/about', { user: member, backend: articleBackend() });
    await userEvent.click(await screen.findByRole('button', { name: '举报' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(await dialog.findByRole('button', { name: '提交举报' }));
    const first = dialog.getByRole('radio', { name: '垃圾广告' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(first.getAttribute('aria-invalid')).toBe('true');
    const reasons = dialog.getByRole('group', { name: '举报原因' });
    expect(document.getElementById(reasons.getAttribute('aria-describedby') ?? '')?.textContent).toBe('请选择举报原因');
  });
});

/** Another reader's approved comment, the one that is reported. */
const bobsComment: Comment = {
  id: 10,
  content: '加微信领资料',
  status: 1,
  user: { id: 3, username: 'bob' },
  user_id: 3,
  document_id: 1,
  type: 1,
};

/** The article seen by the member, its comments `approved` (loaded at once), and `extra` answered besides. */
function articleWithComments(approved: Comment[], extra: Backend = {}) {
  commentsInView();
  return renderApp('/article/detail/about', {
    user: member,
    backend: articleBackend({ 'GET /api/v1/comment/list': approvedOnly(() => approved), ...extra }),
  });
}

describe('举报 a comment', () => {
  it('offers 举报 on another reader’s approved comment, not on one’s own, and sends it as a comment report', async () => {
    const own: Comment = {
      id: 11,
      content: '我的看法',
      status: 1,
      user: { id: 2, username: 'amy' },
      user_id: 2,
      document_id: 1,
      type: 1,
    };
    const { fetchMock } = articleWithComments([bobsComment, own], {
      'POST /api/v1/report': { status: 200, body: {} },
    });
    const ownShown = (await screen.findByText('我的看法')).closest('.app-comment') as HTMLElement;
    expect(within(ownShown).queryByRole('button', { name: '举报' })).toBeNull();
    const other = screen.getByText('加微信领资料').closest('.app-comment') as HTMLElement;
    await userEvent.click(within(other).getByRole('button', { name: '举报' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('举报“bob 的评论”')).toBeTruthy();
    await userEvent.click(dialog.getByRole('radio', { name: '垃圾广告' }));
    await userEvent.click(dialog.getByRole('button', { name: '提交举报' }));
    await waitFor(() => expect(requests(fetchMock, 'POST', '/api/v1/report')).toHaveLength(1));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/report')[0])).toMatchObject({
      type: 2,
      document_id: 10,
      reason: 1,
    });
  });
});

describe('deleting others’ comments', () => {
  it('offers 删除, confirmed, in place of 举报 on others’ comments to one who may delete comments', async () => {
    commentsInView();
    const { fetchMock } = renderApp('/article/detail/about', {
      user: member,
      permissions: [{ id: 7, method: 'GRPC', path: '/api.v1.CommentAPI/DeleteComment', title: '删除评论' }],
      backend: articleBackend({
        'GET /api/v1/comment/list': approvedOnly(() => [bobsComment]),
        'DELETE /api/v1/comment': { status: 200, body: {} },
      }),
    });
    const other = (await screen.findByText('加微信领资料')).closest('.app-comment') as HTMLElement;
    expect(within(other).queryByRole('button', { name: '举报' })).toBeNull();
    await userEvent.click(within(other).getByRole('button', { name: '删除' }));
    expect(within(other).getByRole('group', { name: '确定删除？' })).toBeTruthy();
    expect(requests(fetchMock, 'DELETE', '/api/v1/comment')).toHaveLength(0);
    await userEvent.click(within(other).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '评论已删除')).toBe(true));
    const [deleted] = requests(fetchMock, 'DELETE', '/api/v1/comment');
    expect(new URL(String(deleted?.[0]), 'http://localhost').searchParams.getAll('id')).toEqual(['10']);
  });

  it('offers a member without that permission 举报, not 删除, on others’ comments', async () => {
    articleWithComments([bobsComment]);
    const other = (await screen.findByText('加微信领资料')).closest('.app-comment') as HTMLElement;
    expect(within(other).getByRole('button', { name: '举报' })).toBeTruthy();
    expect(within(other).queryByRole('button', { name: '删除' })).toBeNull();
  });
});

describe('举报 a comment, by keyboard', () => {
  // A dialog (Semi's Modal), not an inline form as under a document: Escape already closed it, and this keeps it so.
  it('closes the 举报 dialog on Escape, as 取消 does, the focus back on the comment’s 举报', async () => {
    articleWithComments([bobsComment]);
    const comment = (await screen.findByText('加微信领资料')).closest('.app-comment') as HTMLElement;
    const report = within(comment).getByRole('button', { name: '举报' });
    await userEvent.click(report);
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(dialog.getByRole('radio', { name: '垃圾广告' }));
    // Semi's Modal hears the keyCode 27 every browser sends with Escape, which user-event leaves out.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(report);
  });
});

describe('feedback', () => {
  it('asks for the content first, then thanks the visitor and says what happens next', async () => {
    const { fetchMock } = renderApp('/article/feedback', {
      backend: {
        'GET /api/v1/article': {
          status: 200,
          body: { ...about, id: 5, identifier: 'feedback', title: '意见反馈', content: '<p>欢迎反馈。</p>' },
        },
        'GET /api/v1/article/related': { status: 404, body: {} },
        'GET /api/v1/comment/list': { status: 200, body: {} },
        'POST /api/v1/feedback': { status: 200, body: {} },
      },
    });
    const form = await screen.findByRole('form', { name: '意见反馈' });
    await userEvent.click(within(form).getByRole('button', { name: '提交反馈' }));
    expect(await within(form).findByText('反馈内容不能为空')).toBeTruthy();
    expect(requests(fetchMock, 'POST', '/api/v1/feedback')).toHaveLength(0);
    await userEvent.type(within(form).getByLabelText('反馈内容'), '希望支持深色模式');
    await userEvent.type(within(form).getByLabelText('联系方式（选填）'), 'me@example.com');
    await userEvent.click(within(form).getByRole('button', { name: '提交反馈' }));
    expect(await screen.findByText('感谢你的反馈！')).toBeTruthy();
    expect(screen.getByText(/1 至 3 个工作日内/)).toBeTruthy();
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/feedback')[0])).toEqual({
      content: '希望支持深色模式',
      contact: 'me@example.com',
      image: '',
      page: '/article/feedback',
    });
  });
});

describe('admin screens', () => {
  const perm = (id: number, path: string): Permission => ({ id, method: 'GRPC', path, title: path });

  it('approves comments in a batch', async () => {
    const comments: Comment[] = [
      {
        id: 21,
        content: '第一条',
        status: 0,
        type: 1,
        document_id: 1,
        document_title: '关于我们',
        document_uuid: 'about',
        user: { username: 'amy' },
      },
      {
        id: 22,
        content: '第二条',
        status: 0,
        type: 1,
        document_id: 1,
        document_title: '关于我们',
        document_uuid: 'about',
        user: { username: 'bob' },
      },
    ];
    const { fetchMock } = renderApp('/admin/comment', {
      user: admin,
      permissions: [perm(1, '/api.v1.CommentAPI/ListComment'), perm(2, '/api.v1.CommentAPI/CheckComment')],
      backend: {
        'GET /api/v1/comment/list': { status: 200, body: { comment: comments, total: 2 } },
        'POST /api/v1/comment/check': { status: 200, body: {} },
      },
    });
    expect(await screen.findByText('第一条')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: '关于我们' })[0]?.getAttribute('href')).toBe('/article/detail/about');
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“第一条”' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择“第二条”' }));
    await userEvent.click(screen.getByRole('button', { name: '批量通过' }));
    await userEvent.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '已通过')).toBe(true));
    expect(bodyOf(requests(fetchMock, 'POST', '/api/v1/comment/check')[0])).toEqual({ id: [21, 22], status: 1 });
  });

  it('handles a report with the note the dialog asks for', async () => {
    const { fetchMock } = renderApp('/admin/report', {
      user: admin,
      permissions: [perm(1, '/api.v1.ReportAPI/ListReport'), perm(2, '/api.v1.ReportAPI/UpdateReport')],
      backend: {
        'GET /api/v1/report/list': {
          status: 200,
          body: {
            report: [
              {
                id: 31,
                type: 1,
                document_id: 1,
                document_title: '关于我们',
                document_uuid: 'about',
                reason: 2,
                description: '不良内容',
                username: 'amy',
              },
            ],
            total: 1,
          },
        },
        'PUT /api/v1/report': { status: 200, body: {} },
      },
    });
    expect(await screen.findByText('淫秽色情')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '处理“关于我们”' }));
    await userEvent.type(await screen.findByLabelText('处理备注'), '已删除');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(toasts.value.some((t) => t.title === '已处理')).toBe(true));
    expect(bodyOf(requests(fetchMock, 'PUT', '/api/v1/report')[0])).toEqual({ id: 31, status: true, remark: '已删除' });
  });

  it('keeps a note being written when a click lands beside its dialog', async () => {
    renderApp('/admin/report', {
      user: admin,
      permissions: [perm(1, '/api.v1.ReportAPI/ListReport'), perm(2, '/api.v1.ReportAPI/UpdateReport')],
      backend: {
        'GET /api/v1/report/list': {
          status: 200,
          body: { report: [{ id: 31, type: 1, document_id: 1, document_title: '关于我们', reason: 2 }], total: 1 },
        },
      },
    });
    const beside = () => document.querySelector('.semi-modal-wrap') as HTMLElement;
    await userEvent.click(await screen.findByRole('button', { name: '处理“关于我们”' }));
    await screen.findByLabelText('处理备注');
    await userEvent.click(beside());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: '处理“关于我们”' }));
    await userEvent.type(await screen.findByLabelText('处理备注'), '已核实，文章已修改');
    await userEvent.click(beside());
    expect((screen.getByLabelText('处理备注') as HTMLTextAreaElement).value).toBe('已核实，文章已修改');
  });

  it('links the documents that comments and reports are about to their reader, as it does articles', async () => {
    const { unmount } = renderApp('/admin/comment', {
      user: admin,
      permissions: [perm(1, '/api.v1.CommentAPI/ListComment')],
      backend: {
        'GET /api/v1/comment/list': {
          status: 200,
          body: {
            comment: [
              { id: 21, content: '很有帮助', status: 0, type: 0, document_id: 8, document_title: '高等数学讲义' },
              {
                id: 22,
                content: '写得好',
                status: 0,
                type: 1,
                document_id: 1,
                document_title: '关于我们',
                document_uuid: 'about',
              },
            ],
            total: 2,
          },
        },
      },
    });
    expect((await screen.findByRole('link', { name: '高等数学讲义' })).getAttribute('href')).toBe('/library/1/8');
    expect(screen.getByRole('link', { name: '关于我们' }).getAttribute('href')).toBe('/article/detail/about');
    unmount();

    renderApp('/admin/report', {
      user: admin,
      permissions: [perm(1, '/api.v1.ReportAPI/ListReport')],
      backend: {
        'GET /api/v1/report/list': {
          status: 200,
          body: {
            report: [{ id: 31, type: 0, document_id: 12, document_title: '考研真题', reason: 1, username: 'amy' }],
            total: 1,
          },
        },
      },
    });
    const link = await screen.findByRole('link', { name: '考研真题' });
    expect(link.getAttribute('href')).toBe('/library/1/12');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('checks the article form like the server before sending', () => {
    const empty = problemsOf({
      title: ' ',
      identifier: '123',
      keywords: '',
      description: '',
      categoryIds: [],
      recommend: false,
      content: '<p></p>',
    });
    expect(empty).toMatchObject({
      title: '文章标题不能为空',
      identifier: '文章标识不能是纯数字',
      content: '文章内容不能为空',
    });
    const ok = problemsOf({
      title: '标题',
      identifier: 'about',
      keywords: '',
      description: '',
      categoryIds: [],
      recommend: false,
      content: '<p><img src="/uploads/a.png"></p>',
    });
    expect(Object.values(ok).filter(Boolean)).toEqual([]);
  });
});

describe('pure helpers', () => {
  it('threads comments: the reader’s own win over the approved copy, replies under their top-level comment, newest thread first', () => {
    const threads = commentThreads(
      [
        { id: 1, content: 'a', status: 1 },
        { id: 2, content: 'b', status: 1 },
        { id: 3, parent_id: 1, content: 'r', status: 1 },
      ],
      [
        { id: 2, content: 'b', status: 1, user_id: 9 },
        { id: 4, content: 'mine', status: 0 },
      ],
    );
    expect(threads.map((t) => [t.comment.id, t.replies.map((r) => r.id)])).toEqual([
      [4, []],
      [2, []],
      [1, [3]],
    ]);
    expect(threads[1]?.comment.user_id).toBe(9);
  });

  it('drops what Word adds to pasted HTML', () => {
    const word =
      '<!--[if gte mso 9]><xml><w:WordDocument/></xml><![endif]--><style>p.MsoNormal{}</style><p class="MsoNormal">正文<o:p></o:p></p>';
    expect(cleanPastedHtml(word)).toBe('<p class="MsoNormal">正文</p>');
  });
});
