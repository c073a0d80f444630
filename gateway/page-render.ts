// A page as the gateway serves it, made from what the plugin (plugins/spa.ts) gathered: the
// page's own head, its main content (the first screen as the SPA renders it for people, plain
// HTML for crawlers, gateway/page-html.ts) and the start data with the page's route data, in
// index.html. Nothing here reads a request, a cache or the clock.
import { SERVICE_UNAVAILABLE_MESSAGE } from '../shared/api-failure';
import { UNAVAILABLE_PAGE_ATTRIBUTE } from '../shared/constants';
import { pageHead, type PageInput } from '../shared/page-head';
import type { RouteMatch } from '../shared/routes';
import type { StartData } from '../shared/types/start-data';
import { pageAnalytics } from './analytics';
import type { FirstScreenRenderer } from './first-screen';
import { paintImageFirst } from './image-first';
import { canInline, inlineImage } from './inline-image';
import {
  escapeHtml,
  firstScreenImages,
  renderCrawlerContent,
  renderHead,
  renderMissingPage,
  scriptSafeJson,
} from './page-html';
import type { ContentCoding } from './plugins/assets';
import type { VisitorSession } from './plugins/page-guard';
import type { RouteData } from './plugins/route-data';
import type { PublicStartData } from './plugins/start-data';

export const HEAD_MARKER = '<!--app-head-->';
export const CONTENT_MARKER = '<!--app-content-->';
export const START_DATA_MARKER = '<!--app-start-data-->';

/** The first value of each query parameter (what the route data declarations read). */
export function queryOf(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) if (!(name in query)) query[name] = value;
  return query;
}

export interface RenderedPage {
  status: number;
  html: Buffer;
  /** the page varies with the User-Agent (a crawler's plain 404 page) */
  forCrawlers: boolean;
  /** the Link header: the first screen's image, preloaded from the answer's head, before the HTML has come */
  link?: string;
  /** the html compressed, made on the first request that accepts the coding and kept with the page */
  encoded?: Partial<Record<ContentCoding, Buffer | Promise<Buffer>>>;
  /**
   * made without what it should have had (its first screen or that screen's image failed or
   * came late): kept as past its time, so that the next request gets it at once and one
   * successor is made whole (gateway/page-cache.ts `visitorPage`)
   */
  partial?: boolean;
  /**
   * made while the backend could not answer the page's calls (route data `unavailable`): not
   * kept, so that the first page asked once the backend is back is made whole
   */
  transient?: boolean;
}

const HEAD_END = '</head>';
/** A path that may go into a header as it is. */
const SAFE_PATH = /^\/[\w./-]+$/;

/**
 * The page from the template. `screenHead` (the first screen's stylesheets and preloads) goes
 * at the end of the head, after the stylesheets of the app itself that the build put there:
 * a screen's rules override the app's of the same specificity, as when the SPA loads the
 * screen's chunk (its stylesheet is then appended to the head).
 */
export function renderPage(
  template: string,
  parts: { head: string; screenHead?: string; content: string; startData: StartData | undefined },
): string {
  const script = parts.startData
    ? `<script type="application/json" id="start-data">${scriptSafeJson(parts.startData)}</script>`
    : '';
  const screenHead = parts.screenHead ? `  ${parts.screenHead}\n  ${HEAD_END}` : HEAD_END;
  // Function replacers: the inserted text may contain `$`. The template's own end of head first.
  return template
    .replace(HEAD_END, () => screenHead)
    .replace(HEAD_MARKER, () => parts.head)
    .replace(CONTENT_MARKER, () => parts.content)
    .replace(START_DATA_MARKER, () => script);
}

/**
 * The page served while the backend cannot give what a page needs (pageGuard's `unavailable`):
 * the notice on the first screen, with 重试, a plain link to the same address that loads it
 * again, working before and without the app's code; no start data, none to be had.
 */
export function renderUnavailablePage(template: string, address: string): string {
  return renderPage(template, {
    head: `<title>${SERVICE_UNAVAILABLE_MESSAGE}</title>\n    <meta name="robots" content="noindex">`,
    content: `<main class="app-unavailable" ${UNAVAILABLE_PAGE_ATTRIBUTE} role="alert"><h1>${SERVICE_UNAVAILABLE_MESSAGE}</h1><p>这个页面暂时无法打开，请稍后点击“重试”。</p><a class="app-unavailable__retry" href="${escapeHtml(address)}">重试</a></main>`,
    startData: undefined,
  });
}

/** What a page is made from. */
export interface PageToRender {
  path: string;
  search: string;
  /** Where the site is, for absolute URLs. */
  origin: string;
  match: RouteMatch | undefined;
  closed: boolean;
  session: VisitorSession;
  publicPart: PublicStartData | undefined;
  routeData: RouteData;
  crawler: boolean;
  /** The browser says another site opened the page (csrf.ts `fromAnotherSite`); a page made for its request alone. */
  fromAnotherSite?: boolean;
}

/**
 * The page's status and bytes, from index.html (`template`) and, for people, the first screen as
 * the SPA shows it, its image inside it when `imageData` gives it as a `data:` URL (inline-image.ts).
 */
export async function renderVisitorPage(
  template: string,
  firstScreen: FirstScreenRenderer | undefined,
  page: PageToRender,
  imageData?: (path: string) => Promise<string | undefined>,
): Promise<RenderedPage> {
  const { match, publicPart, routeData, session } = page;
  const input: PageInput = {
    path: page.path,
    query: queryOf(page.search),
    match,
    settings: publicPart?.settings ?? {},
    categories: publicPart?.categories ?? [],
    origin: page.origin,
    answers: routeData.answers,
    missing: routeData.missing,
    closed: page.closed,
  };
  const head = pageHead(input);
  if (routeData.missing && page.crawler)
    return { status: 404, html: Buffer.from(renderMissingPage(head)), forCrawlers: true };
  let startData: StartData | undefined;
  if (publicPart) {
    startData = { ...publicPart };
    if (session.token && session.user) {
      startData.user = session.user;
      startData.permissions = session.permissions ?? [];
      if (page.fromAnotherSite) startData.openedFromAnotherSite = true;
    }
    if (routeData.answers.length) startData.routeData = routeData.answers;
    // The app shows the page's 404 from it, without asking the backend again.
    if (routeData.failures.length) startData.routeFailures = routeData.failures;
  }
  // People visiting get the first screen as the SPA shows it; crawlers, and people when it
  // is not rendered, the page's main content as plain HTML (hidden from people).
  const rendersScreen = !session.token && !page.crawler && !page.closed && match && !routeData.missing;
  const images = page.closed ? [] : firstScreenImages(input);
  const [image] = images;
  // The image is fetched while the screen is rendered.
  const wantsScreen = !!(rendersScreen && startData && firstScreen);
  let imageFailed = false;
  const [screen, dataUrl] = await Promise.all([
    wantsScreen ? firstScreen!.render(`${input.origin}${page.path}${page.search}`, startData!) : undefined,
    wantsScreen && image && imageData
      ? imageData(image).catch(() => {
          imageFailed = true;
          return undefined;
        })
      : undefined,
  ]);
  // An image inside the page is not asked for.
  const inlined = !!(screen && image && dataUrl && canInline(screen.html, image));
  const analytics = pageAnalytics(publicPart?.settings.system?.analytics, page.path);
  const html = renderPage(template, {
    head: [renderHead(head, publicPart?.settings.system?.favicon, inlined ? [] : images), analytics?.tag]
      .filter(Boolean)
      .join('\n    '),
    screenHead: screen?.head,
    // A closed site shows its notice, not the page's content.
    content: page.closed
      ? ''
      : (screen?.html ?? renderCrawlerContent(input, head, publicPart?.navigation ?? [], routeData.bodies)),
    startData,
  });
  // A first screen with its image (the reader's first page) is painted once the image is here:
  // nothing else downloads beside it.
  const painted = screen && image && firstScreen ? paintImageFirst(html, image, firstScreen.stylesheet) : html;
  // Last: nothing after it looks into the image's text.
  const served = inlined ? inlineImage(painted, image!, dataUrl!) : painted;
  // A path that is no route, or a page whose subject is gone, still gets the page (the SPA
  // shows its 404) with a 404 status; on a closed site a non-admin gets the page too (the SPA
  // shows 站点已关闭), with a 503.
  // A page made while the backend could not answer its calls is a 503 too: a crawler comes back
  // later rather than keep a page without its content.
  const status = page.closed || routeData.unavailable ? 503 : !match || routeData.missing ? 404 : 200;
  const rendered: RenderedPage = { status, html: Buffer.from(served), forCrawlers: routeData.missing };
  if (wantsScreen && (!screen || imageFailed)) rendered.partial = true;
  if (routeData.unavailable) rendered.transient = true;
  if (image && !inlined && SAFE_PATH.test(image))
    rendered.link = `<${image}>; rel=preload; as=image; fetchpriority=high`;
  return rendered;
}
