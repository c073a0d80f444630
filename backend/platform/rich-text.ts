import sanitizeHtml from 'sanitize-html';
import { decodeHtmlEntities } from '../../shared/html-entities';

// Rich text that members and admins write (article bodies) goes through one allow-list
// before it is stored, so no reader's browser ever gets markup that runs script: unknown
// tags are dropped with their attributes (their text stays), script/style lose their
// content, styles and event handlers never pass, links may only be http(s), mailto or site
// paths, and images only our own uploads or https URLs.

/** `/uploads/…` (our content-addressed images) or an absolute https URL. */
const ALLOWED_IMAGE_SOURCE = /^(\/uploads\/([A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+\.[A-Za-z0-9]+|https:\/\/[^\s"'<>]+)$/;

/** The inline emphasis every allow-list of written HTML lets through (article bodies, advertisements). */
export const EMPHASIS_TAGS = ['strong', 'b', 'em', 'i', 'u', 's'];

const RICH_TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    ...EMPHASIS_TAGS,
    'del',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'hr',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    code: ['class'],
  },
  allowedClasses: { code: [/^language-[a-z0-9+#-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An editor's h1 would compete with the page's own title.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const link: sanitizeHtml.Attributes = { ...attribs };
      if (link.target === '_blank') link.rel = 'noopener noreferrer nofollow';
      else {
        delete link.target;
        delete link.rel;
      }
      return { tagName, attribs: link };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !ALLOWED_IMAGE_SOURCE.test(frame.attribs.src ?? ''),
  nestingLimit: 64,
};

/** The HTML of an article body as it may be stored and shown. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_OPTIONS).trim();
}

/**
 * The text of some HTML: blocks become line breaks, a table's cells are kept apart by a space (the
 * cells 2024 and 120000 are not the number 2024120000), entities are decoded, runs of blank space shrink.
 */
export function richTextToText(html: string): string {
  const withBreaks = html
    .replace(/<\/(p|div|h[1-6]|li|blockquote|pre|tr|figcaption|caption)>|<br\s*\/?>/gi, '$&\n')
    .replace(/<\/(td|th)>/gi, '$& ');
  const text = decodeHtmlEntities(sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} }));
  return text
    .replace(/[ \t\u00a0\u3000]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}
