// The SPA: hashed assets from web/dist/assets (pre-compressed, immutable), the few files at
// the top of web/dist, and index.html for every page navigation, after the page guard, with
// the site's head and the start data filled in.
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StartData } from '../../shared/types/start-data';
import { normalizePath } from '../../shared/access';
import { matchRoute } from '../../shared/routes';
import { MESSAGES, errorBody } from '../errors';
import { isUnder } from '../http';
import assets from './assets';
import type { VisitorSession } from './page-guard';
import type { PublicStartData } from './start-data';
import { BACKEND_FILES, BACKEND_PREFIXES } from './upstream';

export interface SpaOptions {
  webDist: string;
}

export const HEAD_MARKER = '<!--app-head-->';
export const START_DATA_MARKER = '<!--app-start-data-->';
const DEFAULT_TITLE = '文库';
const TOP_FILE_CACHE = 'public, max-age=3600';

/** Paths that are never a page: a miss there is a JSON 404, not index.html. */
const NEVER_PAGES = ['/api', '/assets', ...BACKEND_PREFIXES, ...BACKEND_FILES];

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that can sit inside <script> without ending it or being read as HTML. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function safeIconUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '/favicon.ico';
  return /^(?:https?:\/\/|\/(?!\/))/i.test(value) ? value : '/favicon.ico';
}

export function renderHead(settings: PublicStartData['settings'] | undefined): string {
  const system = settings?.system ?? {};
  const title = system.title || system.sitename || DEFAULT_TITLE;
  return [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(system.description ?? '')}">`,
    `<meta name="keywords" content="${escapeHtml(system.keywords ?? '')}">`,
    `<link rel="icon" href="${escapeHtml(safeIconUrl(system.favicon))}">`,
  ].join('\n    ');
}

export function renderPage(template: string, publicPart: PublicStartData | undefined, session: VisitorSession): string {
  let script = '';
  if (publicPart) {
    const data: StartData = { ...publicPart };
    if (session.token && session.user) {
      data.user = session.user;
      data.permissions = session.permissions ?? [];
    }
    script = `<script type="application/json" id="start-data">${scriptSafeJson(data)}</script>`;
  }
  // Function replacers: the inserted text may contain `$`.
  return template.replace(HEAD_MARKER, () => renderHead(publicPart?.settings)).replace(START_DATA_MARKER, () => script);
}

/** A browser navigation (or a client that takes anything) to something that is not a file. */
function wantsPage(request: FastifyRequest, normalized: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const lower = normalized.toLowerCase();
  if (NEVER_PAGES.some((prefix) => isUnder(lower, prefix))) return false;
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  const lastSegment = normalized.slice(normalized.lastIndexOf('/') + 1);
  return (accept === '' || accept.includes('*/*')) && !lastSegment.includes('.');
}

function notFound(reply: FastifyReply) {
  return reply.code(404).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(errorBody(404, MESSAGES.notFound));
}

export default fp<SpaOptions>(
  async function spa(fastify, opts) {
    const indexPath = join(opts.webDist, 'index.html');
    let template: string;
    try {
      template = await readFile(indexPath, 'utf8');
    } catch {
      throw new Error(`The SPA is not built: ${indexPath} is missing. Run \`npm run build:web\` (or \`npm start\`, which builds it).`);
    }
    if (!template.includes(HEAD_MARKER) || !template.includes(START_DATA_MARKER)) {
      fastify.log.warn({ indexPath }, 'index.html lacks the <!--app-head--> / <!--app-start-data--> markers');
    }

    // reply.sendFile for the files below and for what the asset table leaves to it.
    await fastify.register(fastifyStatic, {
      root: opts.webDist,
      serve: false,
      preCompressed: true,
      index: false,
      dotfiles: 'deny',
    });
    await fastify.register(assets, { dir: join(opts.webDist, 'assets') });

    // favicon.ico, robots.txt and the like from web/public (index.html is never served raw).
    const topFiles = (await readdir(opts.webDist, { withFileTypes: true })).filter(
      (entry) => entry.isFile() && entry.name !== 'index.html' && /^[\w-][\w.-]*$/.test(entry.name) && !/\.(?:br|gz)$/.test(entry.name),
    );
    for (const { name } of topFiles) {
      if (BACKEND_FILES.includes(`/${name}`)) continue;
      fastify.get(`/${name}`, (_request, reply) => {
        reply.header('cache-control', TOP_FILE_CACHE);
        return reply.sendFile(name, opts.webDist, { cacheControl: false });
      });
    }

    // Pages are rendered once and kept as bytes (encoding the page on every answer cost a
    // third of the rate): the anonymous page per public data, as it is the same for
    // everybody; a logged-in visitor's per session the page guard keeps (and public data).
    const anonymousPages = new WeakMap<PublicStartData, Buffer>();
    const sessionPages = new WeakMap<VisitorSession, { publicPart: PublicStartData | undefined; html: Buffer }>();

    fastify.setNotFoundHandler(async (request, reply) => {
      const normalized = normalizePath(request.url);
      if (normalized === null || !wantsPage(request, normalized)) return notFound(reply);

      const outcome = await fastify.pageGuard.check(request, reply);
      if (outcome.kind === 'refused') return notFound(reply);
      if (outcome.kind === 'redirect') {
        return reply.code(302).header('cache-control', 'no-store').header('location', outcome.location).send();
      }

      const { session, publicPart } = outcome;
      let html: Buffer;
      if (!session.token && publicPart) {
        html = anonymousPages.get(publicPart) ?? Buffer.from(renderPage(template, publicPart, session));
        anonymousPages.set(publicPart, html);
      } else {
        const kept = sessionPages.get(session);
        if (kept && kept.publicPart === publicPart) {
          html = kept.html;
        } else {
          html = Buffer.from(renderPage(template, publicPart, session));
          if (session.token) sessionPages.set(session, { publicPart, html });
        }
      }
      // A path that is no route still gets the page (the SPA shows its 404), with a 404 status;
      // on a closed site a non-admin gets the page too (the SPA shows 站点已关闭), with a 503.
      const status = outcome.kind === 'closed' ? 503 : matchRoute(normalized) ? 200 : 404;
      return reply
        .code(status)
        .header('cache-control', session.token ? 'private, no-cache' : 'no-cache')
        .header('vary', 'Cookie')
        .type('text/html; charset=utf-8')
        .send(html);
    });
  },
  { name: 'spa', dependencies: ['page-guard', 'start-data'] },
);
