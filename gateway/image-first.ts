// A page whose first screen shows an image (the reader's first page) is painted when that image
// has arrived; on a slow phone link every file downloading beside it takes a share of the
// bandwidth and delays it (docs/performance.md §6.1). So such a page carries its
// stylesheets inline, and the app's code (its scripts, module preloads and stylesheet links)
// is asked for by a small script (served by the gateway: the CSP runs no inline script) once
// the image has loaded or failed, or after a while at the latest: after the HTML, the image
// travels alone but for that script's few hundred bytes.
import { INLINED_SRC_ATTRIBUTE } from './inline-image';
import { scriptSafeJson } from './page-html';

/** When the image has neither loaded nor failed by then, the app's code is asked for anyway (ms). */
export const APP_CODE_LATEST_MS = 3_000;

const STYLESHEET = /<link rel="stylesheet" crossorigin href="([^"]+)">/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const MODULE_SCRIPT = /<script type="module" crossorigin src="([^"]+)"(?: data-reader="([^"]*)")?><\/script>/g;

interface AppCode {
  image: string;
  latest: number;
  stylesheets: string[];
  preloads: string[];
  scripts: { src: string; reader?: string }[];
}

/** Where the loader is served (the page's CSP runs no inline script). */
export const IMAGE_FIRST_SCRIPT_PATH = '/image-first.js';

/**
 * The loader, ES5: the image's path, the app's files and the time limit come in the page's
 * `#app-code` (JSON); run when the page has been parsed (`defer`), when the image is in the document.
 */
export const IMAGE_FIRST_SCRIPT = `(function () {
  var data = document.getElementById('app-code');
  if (!data) return;
  var code = JSON.parse(data.textContent);
  var started = false;
  function add(tag, attrs) {
    var el = document.createElement(tag);
    for (var name in attrs) el.setAttribute(name, attrs[name]);
    document.head.appendChild(el);
  }
  function start() {
    if (started) return;
    started = true;
    code.stylesheets.forEach(function (href) { add('link', { rel: 'stylesheet', crossorigin: '', href: href }); });
    code.preloads.forEach(function (href) { add('link', { rel: 'modulepreload', crossorigin: '', href: href }); });
    code.scripts.forEach(function (s) {
      var attrs = { type: 'module', crossorigin: '', src: s.src };
      if (s.reader) attrs['data-reader'] = s.reader;
      add('script', attrs);
    });
  }
  var img = Array.prototype.filter.call(document.images, function (i) {
    return i.getAttribute('src') === code.image || i.getAttribute('${INLINED_SRC_ATTRIBUTE}') === code.image;
  })[0];
  if (!img || img.complete) return start();
  img.addEventListener('load', start);
  img.addEventListener('error', start);
  setTimeout(start, code.latest);
})();
`;

const HEAD = /<head>([\s\S]*?)<\/head>/;

/**
 * The page `html` with its head's stylesheets inline (their text from `stylesheetText`, by
 * path) and the app's code asked for after the first screen's image `image`. Unchanged when a
 * stylesheet's text is unknown or the page has no head.
 */
export function paintImageFirst(
  html: string,
  image: string,
  stylesheetText: (href: string) => string | undefined,
): string {
  const head = HEAD.exec(html)?.[1];
  if (head === undefined) return html;
  const code: AppCode = { image, latest: APP_CODE_LATEST_MS, stylesheets: [], preloads: [], scripts: [] };
  for (const [, href] of head.matchAll(STYLESHEET)) {
    if (stylesheetText(href!) === undefined) return html;
    code.stylesheets.push(href!);
  }
  const newHead = head
    // In place: the rules keep their order, the screen's after the app's.
    .replace(
      STYLESHEET,
      (_, href: string) => `<style>${stylesheetText(href)!.replace(/<\/style/gi, '<\\/style')}</style>`,
    )
    .replace(MODULE_PRELOAD, (_, href: string) => {
      code.preloads.push(href);
      return '';
    })
    .replace(MODULE_SCRIPT, (_, src: string, reader: string | undefined) => {
      code.scripts.push(reader === undefined ? { src } : { src, reader });
      return '';
    })
    .replace(/\n\s*\n(\s*)/g, '\n$1');
  const loader =
    `<script type="application/json" id="app-code">${scriptSafeJson(code)}</script>\n` +
    `    <script src="${IMAGE_FIRST_SCRIPT_PATH}" defer></script>`;
  return html.replace(HEAD, () => `<head>${newHead}</head>`).replace(/<\/body>/, () => `  ${loader}\n  </body>`);
}
