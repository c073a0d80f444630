// Where a link to the comments under a document or an article points (a shared link, a message):
// `#comments`, the id of their section, its stand-in while its code comes included (so the
// gateway's first screen carries it); or `#comment-<id>`, the very comment (a message about it),
// shown and marked once the comments are drawn, the section meanwhile or when it is gone.
export const COMMENTS_ID = 'comments';

/** `path` (a document's or an article's page) at its comments. */
const commentsPath = (path: string) => `${path}#${COMMENTS_ID}`;

/** The id of a comment's element in the page. */
export const commentElementId = (commentId: number) => `comment-${commentId}`;

/** `path` at the comment `commentId`, or at the comments when it names none (0). */
export const commentPath = (path: string, commentId: number) =>
  commentId > 0 ? `${path}#${commentElementId(commentId)}` : commentsPath(path);

/** The comment an element id (the address's hash without its #) names, else 0. */
export function commentIdOf(elementId: string): number {
  const match = /^comment-([1-9]\d{0,15})$/.exec(elementId);
  return match ? Number(match[1]) : 0;
}
