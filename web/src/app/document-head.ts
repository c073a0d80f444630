// The page's <head> on client-side navigation: the same title, description, keywords, robots,
// canonical URL, Open Graph and JSON-LD the gateway writes into the page it serves
// (shared/page-head.ts), from the route, the settings and the data of the page's calls as
// react-query holds them, so the head follows the data as it arrives.
import { notifyManager, useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement, useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import type { CallAnswer } from '../../../shared/api-call';
import { isMissingCategory, isPastTheEnd, pageHead, type PageHead } from '../../../shared/page-head';
import { routeDataCalls, type RouteMatch } from '../../../shared/routes';
import type { Category } from '../../../shared/types/category';
import type { Settings } from '../../../shared/types/config';
import { ApiError } from '../api/client';
import { categoryListQuery } from '../features/category/api';
import { useSettings } from '../features/settings/use-settings';
import { useCurrentPage } from '../kit/routing/current-route';
import { RouteChange } from './route-change';

/** Elements of the head this module owns: replaced as a whole on every change. */
const OWNED = 'meta[name="robots"], link[rel="canonical"], meta[property^="og:"], script[type="application/ld+json"]';

function setMeta(name: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!element) {
    element = Object.assign(document.createElement('meta'), { name });
    document.head.appendChild(element);
  }
  element.setAttribute('content', content);
}

function setFavicon(settings: Settings): void {
  const href = settings.system?.favicon;
  if (!href) return;
  let element = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!element) {
    element = Object.assign(document.createElement('link'), { rel: 'icon' });
    document.head.appendChild(element);
  }
  element.setAttribute('href', href);
}

export function applyPageHead(head: PageHead, settings: Settings): void {
  document.title = head.title;
  setMeta('description', head.description);
  setMeta('keywords', head.keywords);
  setFavicon(settings);
  for (const element of document.head.querySelectorAll(OWNED)) element.remove();
  const owned: HTMLElement[] = [];
  if (head.robots) owned.push(Object.assign(document.createElement('meta'), { name: 'robots', content: head.robots }));
  if (head.canonical)
    owned.push(Object.assign(document.createElement('link'), { rel: 'canonical', href: head.canonical }));
  for (const [property, content] of head.openGraph) {
    const meta = document.createElement('meta');
    meta.setAttribute('property', property);
    meta.setAttribute('content', content);
    owned.push(meta);
  }
  for (const data of head.jsonLd)
    owned.push(
      Object.assign(document.createElement('script'), { type: 'application/ld+json', text: JSON.stringify(data) }),
    );
  document.head.append(...owned);
}

/** A head with only a title (the error and closed-site screens, outside the route's own head). */
export function useDocumentTitle(settings: Settings, title: string): void {
  useEffect(() => {
    document.title = title;
    setFavicon(settings);
  }, [settings, title]);
}

/**
 * The answers of the page's calls that react-query holds, and whether its subject is gone
 * (404). It follows the query cache without observing the queries (an observer would give
 * them its options, and the screens own those).
 */
function usePageAnswers(
  match: RouteMatch | undefined,
  query: Readonly<Record<string, string>>,
  categories: readonly Category[],
): { answers: CallAnswer[]; missing: boolean } {
  const queryClient = useQueryClient();
  const calls = useMemo(() => (match ? routeDataCalls(match, query, categories) : []), [match, query, categories]);
  // Told after the render that changed the cache, as react-query tells its own observers: a
  // screen's query may change the cache while it renders, and this component must not update then.
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(notifyManager.batchCalls(onChange)),
    [queryClient],
  );
  // When each call's data or error last changed: the answers are read again only then.
  const snapshot = () =>
    calls
      .map((call) => {
        const state = queryClient.getQueryState(call.key);
        return `${state?.dataUpdatedAt ?? 0}.${state?.errorUpdatedAt ?? 0}`;
      })
      .join();
  const version = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(() => {
    const answers: CallAnswer[] = [];
    let missing = false;
    for (const call of calls) {
      const state = queryClient.getQueryState(call.key);
      if (state?.data !== undefined) answers.push({ key: call.key, data: state.data });
      if (call.subject && state?.error instanceof ApiError && state.error.status === 404) missing = true;
    }
    return { answers, missing };
    // `version` says when the cache changed for these calls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [calls, queryClient, version]);
}

const NO_CATEGORIES: readonly Category[] = [];

/**
 * Keeps the head of the page on screen right (rendered once, around every layout), and says the
 * title after a move to another screen. In the
 * gateway's first screen (no document) the head is the gateway's (shared/page-head.ts) and
 * nothing is worked out here.
 */
export function PageHeadManager() {
  // The server draws the empty live region the browser's first render has.
  return typeof document === 'undefined' ? createElement(RouteChange, { title: '' }) : createElement(PageHeadFollower);
}

function PageHeadFollower() {
  const settings = useSettings();
  const categoryList = useQuery(categoryListQuery()).data;
  const categories = categoryList ?? NO_CATEGORIES;
  const page = useCurrentPage();
  const { pathname, search } = useLocation();
  const query = useMemo(() => {
    const first: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(search)) if (!(name in first)) first[name] = value;
    return first;
  }, [search]);
  const match = useMemo(() => (page ? { route: page.route, params: page.params } : undefined), [page]);
  const { answers, missing: gone } = usePageAnswers(match, query, categories);
  // As the gateway says for the page it serves: a category page whose category the site does
  // not show (none, another type's, disabled) is missing, once the categories are known, and so
  // is a list's page past its last.
  const missing =
    gone ||
    (categoryList !== undefined && isMissingCategory(match, categoryList)) ||
    isPastTheEnd({ match, query, categories, answers });
  const head = pageHead({
    path: pathname,
    query,
    match,
    settings,
    categories,
    origin: globalThis.location?.origin ?? '',
    answers,
    missing,
  });
  const signature = JSON.stringify(head);
  useEffect(() => applyPageHead(JSON.parse(signature) as PageHead, settings), [signature, settings]);
  // A move to another screen: the focus to its <main>, its title said (app/route-change.tsx).
  return createElement(RouteChange, { title: head.title });
}
