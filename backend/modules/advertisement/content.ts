import sanitizeHtml from 'sanitize-html';
import { EMPHASIS_TAGS } from '../../platform/rich-text';

// An advertisement is HTML the admin writes (an image with a link, a line of text). It goes
// through an allow-list before it is stored, so that no visitor's browser ever gets markup
// that runs script: no script, iframe, form or event handler, links only http(s) or site
// paths, images only our uploads or https URLs. Classes and inline styles stay, for layout.

const ALLOWED_IMAGE_SOURCE = /^(\/uploads\/[^\s"'<>]+|https:\/\/[^\s"'<>]+)$/;

const AD_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'img', 'p', 'div', 'span', 'br', ...EMPHASIS_TAGS, 'small', 'ul', 'ol', 'li', 'picture', 'source'],
  allowedAttributes: {
    '*': ['class', 'style', 'title'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    source: ['srcset', 'media', 'type'],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'srcset'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Ads are paid links: search engines must not count them, and the page must not be reachable through window.opener.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'sponsored nofollow noopener noreferrer' } }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !ALLOWED_IMAGE_SOURCE.test(frame.attribs.src ?? ''),
  nestingLimit: 32,
};

/** The advertisement's HTML as it may be stored and shown. */
export function sanitizeAdContent(html: string): string {
  return sanitizeHtml(html, AD_OPTIONS).trim();
}
