import { articleIdentifierOf } from '../../../shared/routes';
import { FOOTER_LINKS } from '../../../shared/site-footer';
import { parseVipPlans } from '../../../shared/vip';
import type { Database } from '../../db';
import type { ConfigSnapshot } from '../../platform/config-store';
import { sanitizeRichText } from '../../platform/rich-text';
import { publishedIdentifiers } from '../article/service';
import { uploadReward } from '../document/service';
import { enabledLanguages } from '../language/service';
import { offeredProviders } from '../payment/service';

// The public `GET /api/v1/settings` view (docs/moredoc.md §10) plus our `vip`, `oauth`,
// `pay`, `sms` and `email` objects (docs/api.md). Secrets never appear here.

const DISPLAY_SWITCHES = [
  'show_register_user_count',
  'show_index_categories',
  'show_document_descriptions',
  'hide_keywords_on_lists',
  'show_document_count',
  'show_document_view_count',
  'show_document_download_count',
  'show_document_favorite_count',
  'hide_category_without_document',
] as const;

/** Only the inner text of `<script>` elements when there are any (MOREDOC's analytics rule). */
function analyticsSnippet(value: string): string {
  const scripts = [...value.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => (m[1] ?? '').trim());
  return scripts.length ? scripts.join('\n') : value;
}

export async function buildSettings(db: Database, cfg: ConfigSnapshot, version: string) {
  const language = await languagesOf(db, cfg);
  let fromConfig = madeFrom.get(cfg);
  if (!fromConfig) {
    fromConfig = settingsFromConfig(cfg, version);
    madeFrom.set(cfg, fromConfig);
  }
  const footer = await footerOf(db, cfg, fromConfig.footer);
  const { system, security, display, vip, oauth, pay, sms, email } = fromConfig;
  return { system, footer, security, display, language, vip, oauth, pay, sms, email };
}

/**
 * The part made from the config alone, once per snapshot (the store makes a new one after each
 * config write): the settings are the most asked-for call, and cleaning the VIP benefits' HTML
 * alone cost a tenth of it.
 */
const madeFrom = new WeakMap<ConfigSnapshot, ReturnType<typeof settingsFromConfig>>();

/**
 * The enabled languages, read once per snapshot: every write to the `language` table bumps the
 * settings' change counter (language/store.ts), so they are as fresh as the settings in every
 * process, and the settings call makes no query while neither changes.
 */
const languagesFrom = new WeakMap<ConfigSnapshot, ReturnType<typeof enabledLanguages>>();

function languagesOf(db: Database, cfg: ConfigSnapshot): ReturnType<typeof enabledLanguages> {
  let languages = languagesFrom.get(cfg);
  if (!languages) {
    languages = enabledLanguages(db);
    languagesFrom.set(cfg, languages);
    // A failed read (the database unreachable) is tried again by the next call.
    languages.catch(() => languagesFrom.delete(cfg));
  }
  return languages;
}

/**
 * The footer's links, those to an article page (`/article/agreement`) only while that article is
 * published: a page the admin deleted, withdrew or renamed leaves no link to 文章不存在, in the
 * footer or under the registration forms. Read once per snapshot, as the languages: every article
 * write bumps the settings' change counter (article/changes.ts).
 */
const footersFrom = new WeakMap<ConfigSnapshot, Promise<Record<string, string>>>();

function footerOf(db: Database, cfg: ConfigSnapshot, footer: Record<string, string>): Promise<Record<string, string>> {
  let live = footersFrom.get(cfg);
  if (!live) {
    live = withoutRemovedPages(db, footer);
    footersFrom.set(cfg, live);
    live.catch(() => footersFrom.delete(cfg));
  }
  return live;
}

async function withoutRemovedPages(db: Database, footer: Record<string, string>): Promise<Record<string, string>> {
  const pages = new Map<string, string>();
  for (const [key, href] of Object.entries(footer)) {
    const identifier = articleIdentifierOf(href);
    if (identifier) pages.set(key, identifier);
  }
  if (!pages.size) return footer;
  const published = new Set(await publishedIdentifiers(db, [...new Set(pages.values())]));
  return Object.fromEntries(
    Object.entries(footer).map(([key, href]) => {
      const identifier = pages.get(key);
      return [key, identifier === undefined || published.has(identifier) ? href : ''];
    }),
  );
}

function settingsFromConfig(cfg: ConfigSnapshot, version: string) {
  const s = (name: string) => cfg.str('system', name);
  const maxSize = cfg.int('security', 'max_document_size');
  const providers = offeredProviders(cfg);
  const reward = uploadReward(cfg);
  return {
    system: {
      domain: s('domain'),
      title: s('title'),
      keywords: s('keywords'),
      description: s('description'),
      logo: s('logo'),
      favicon: s('favicon'),
      icp: s('icp'),
      analytics: analyticsSnippet(s('analytics')),
      sitename: s('sitename'),
      copyright_start_year: s('copyright_start_year'),
      register_background: s('register_background'),
      login_background: s('login_background'),
      recommend_words: cfg.list('system', 'recommend_words'),
      version,
      credit_name: cfg.str('score', 'credit_name'),
      sec_icp: s('sec_icp'),
      // 我的文档 asks before a delete that costs credits (docs/api.md, DeleteDocument).
      delete_document_credits: Math.max(0, cfg.int('score', 'delete_document')),
      // The upload screen says the reward of publishing before the files are chosen (docs/api.md, CreateDocument).
      upload_document_credits: reward.credits,
      upload_document_limit: reward.perDay,
    },
    footer: Object.fromEntries(FOOTER_LINKS.map(({ key }) => [key, cfg.str('footer', key)])),
    security: {
      ...Object.fromEntries(
        [
          'is_close',
          'enable_register',
          'enable_captcha_login',
          'enable_captcha_register',
          'enable_captcha_comment',
          'enable_captcha_find_password',
          'login_required',
          'enable_verify_register_email',
          'enable_captcha_sms',
          'enable_captcha_feedback',
        ].map((k) => [k, cfg.bool('security', k)]),
      ),
      close_statement: cfg.str('security', 'close_statement'),
      max_document_size: maxSize > 0 ? maxSize : 50,
      document_allowed_ext: cfg.list('security', 'document_allowed_ext'),
    },
    display: {
      ...Object.fromEntries(DISPLAY_SWITCHES.map((k) => [k, cfg.bool('display', k)])),
      ...Object.fromEntries(
        [
          'copyright_statement',
          'wechat_tip',
          'wechat_qrcode',
          'contact_tip',
          'contact_link',
          'index_document_style',
          'home_version',
          'copy_text',
        ].map((k) => [k, cfg.str('display', k)]),
      ),
      pages_per_read: cfg.int('display', 'pages_per_read'),
    },
    vip: {
      enable: cfg.bool('vip', 'enable'),
      title: cfg.str('vip', 'title'),
      description: cfg.str('vip', 'description'),
      plans: parseVipPlans(cfg.str('vip', 'plans')),
      free_download: cfg.bool('vip', 'free_download'),
      read_all_pages: cfg.bool('vip', 'read_all_pages'),
      times_every_day: cfg.int('vip', 'times_every_day'),
      benefits: sanitizeRichText(cfg.str('vip', 'benefits')),
    },
    oauth: { wechat: cfg.bool('oauth', 'wechat'), qq: cfg.bool('oauth', 'qq') },
    pay: { enable: cfg.bool('pay', 'enable'), provider: providers[0] ?? '', providers },
    sms: { enable: cfg.bool('sms', 'enable') },
    // As the mailer checks before sending (platform/mailer.ts): password reset and e-mail codes need it.
    email: {
      enable: cfg.bool('email', 'enable') && cfg.str('email', 'host') !== '' && cfg.str('email', 'username') !== '',
    },
  };
}
