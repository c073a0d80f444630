// The first screen of a public page as HTML, made by the gateway (gateway/first-screen.ts)
// from the page's start data, with the same components, routes and query keys as the SPA:
// people see the page's content as soon as the page and its stylesheets have arrived, and
// the SPA, once its code is here, replaces it with the same screen (main.tsx). Built apart
// from the SPA (`vite build --ssr`, see web/vite.config.ts) into web/dist/.ssr/.
//
// Only visitors' pages of the default layout outside the member area are rendered here: the
// session store is one per process, and stays empty (a visitor's) in the gateway.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { Writable } from 'node:stream';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import type { FirstScreen } from '../../shared/first-screen';
import type { StartData } from '../../shared/types/start-data';
import { createQueryClient } from './api/query-client';
import { AppProviders } from './app/AppProviders';
import { applyStartData } from './app/boot';
import { appRoutes } from './app/router';
import type { RouteHandle } from './kit/routing/current-route';

/** Layouts whose screens are rendered: the public pages' (`layout-member` is inside it, and refused). */
const RENDERED_LAYOUT = 'layout-default';
const REFUSED_LAYOUTS = new Set(['layout-member']);

/**
 * The routes and their handler, made once (ranking the routes took a sixth of a render): their
 * loaders read the query client of the page being rendered, renders side by side each their own.
 */
const rendering = new AsyncLocalStorage<QueryClient>();
const handler = createStaticHandler(
  appRoutes(() => {
    const queryClient = rendering.getStore();
    if (!queryClient) throw new Error('a route loader ran outside renderFirstScreen');
    return queryClient;
  }),
);

/** Why the parts still loading are left to the client (not a failure). */
const LEFT_TO_THE_CLIENT = new Error('the first screen is rendered in one pass');

/** Inline scripts: only React writes any here (text from data is escaped). */
const REACT_SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script>/g;

/**
 * The screen as the SPA's first render shows it: what waits for code or data shows its Suspense
 * fallback, as in the browser before that code has come. Rejects when a component fails
 * (React would show a fallback there, and the SPA something else).
 */
function renderOnePass(screen: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    let failure: unknown;
    let html = '';
    let taken = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!taken) html += chunk.toString();
        done();
      },
    });
    const stream = renderToPipeableStream(screen, {
      // In one piece: nothing is sent ahead of the rest.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError(error) {
        if (error !== LEFT_TO_THE_CLIENT) failure ??= error;
      },
      onShellError: reject,
      onShellReady() {
        // The shell is written at once; what still waits (the lazy parts) stays as its fallback.
        stream.pipe(sink);
        taken = true;
        stream.abort(LEFT_TO_THE_CLIENT);
        // React's own scripts for streamed parts: none is streamed, and the page's policy refuses inline scripts.
        if (failure === undefined) resolve(html.replace(REACT_SCRIPTS, ''));
        else reject(failure instanceof Error ? failure : new Error(String(failure)));
      },
    });
  });
}

/**
 * The first screen of `url` (absolute) for a visitor, or undefined when it is not rendered
 * here: another layout, a redirect, an error or a 404 (the SPA shows those itself).
 */
export async function renderFirstScreen(url: string, start: StartData): Promise<FirstScreen | undefined> {
  if (start.user) return undefined;
  const queryClient = createQueryClient();
  applyStartData(queryClient, start);
  const context = await rendering.run(queryClient, () => handler.query(new Request(url)));
  if (context instanceof Response || context.statusCode !== 200 || context.errors) return undefined;
  const ids = context.matches.map((match) => match.route.id);
  if (!ids.includes(RENDERED_LAYOUT) || ids.some((id) => REFUSED_LAYOUTS.has(id))) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = await renderOnePass(
    <AppProviders queryClient={queryClient}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  queryClient.clear();
  const files = context.matches
    .map((match) => (match.route.handle as RouteHandle | undefined)?.file)
    .filter((file): file is string => !!file);
  return { html, files };
}
