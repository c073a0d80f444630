// Where a link to the comments under a document or an article points (a message about a reply, a
// shared link): `#comments`, the id of their section, its stand-in while its code comes included
// (so the gateway's first screen carries it).
export const COMMENTS_ID = 'comments';

/** `path` (a document's or an article's page) at its comments. */
export const commentsPath = (path: string) => `${path}#${COMMENTS_ID}`;
