// The site's statistics code (系统设置 → 网站统计代码, `system.analytics`; the settings give the
// code inside its <script> elements, as MOREDOC does): written into every page the gateway
// serves, and allowed by that page's CSP through its hash, with the hosts the code names
// (where such a snippet loads its tracker from and sends its counts to). Decision 061.
import { createHash } from 'node:crypto';

export interface AnalyticsScript {
  /** the <script> element the page carries */
  tag: string;
  /** the CSP source of the element's text: `'sha256-…'` */
  hash: string;
  /** the hosts the code names (`hm.baidu.com`), as CSP host sources */
  hosts: string[];
}

/** `host` or `host:port` after `//` (`https://hm.baidu.com/hm.js`, `//sdk.51.la/…`). */
const HOST = /(?:https?:)?\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+(?::\d{1,5})?)/gi;

let last: { code: string | undefined; script: AnalyticsScript | undefined } | undefined;

/** The statistics code as the page carries it; undefined when there is none. */
export function analyticsScript(code: string | undefined): AnalyticsScript | undefined {
  if (last && last.code === code) return last.script;
  const text = (code ?? '').trim();
  // Inside <script>, `</script` would end the element and `<!--` change how it is read: in the
  // code's strings, where they can be, `<\/` and `<\!` mean the same.
  const body = text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const script = body
    ? {
        tag: `<script>${body}</script>`,
        hash: `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
        hosts: [...new Set([...body.matchAll(HOST)].map((m) => m[1]!.toLowerCase()))],
      }
    : undefined;
  last = { code, script };
  return script;
}

/**
 * Pages whose address may hold a one-time secret: a password-reset link's token
 * (`/auth/forgot?token=…`) and a sign-in provider's code (`/oauth/callback?code=…`). A
 * statistics script sends the address of the page it runs on to its service, where whoever
 * reads the counts could use the link before its member does: these pages carry none (decision 063).
 */
const PAGES_WITH_SECRETS: ReadonlySet<string> = new Set(['/auth/forgot', '/oauth/callback']);

/** The statistics code the page at `path` (its normal form) carries: analyticsScript, but none on PAGES_WITH_SECRETS. */
export function pageAnalytics(code: string | undefined, path: string): AnalyticsScript | undefined {
  return PAGES_WITH_SECRETS.has(path.toLowerCase().replace(/\/+$/, '')) ? undefined : analyticsScript(code);
}
