// The comments' code (the form, the captcha, the checks) loads apart from the screen that shows
// them: a reader's first page image or an article's text never waits for it.
import { Suspense } from 'react';
import { lazy } from '../../ui/lazy';
import { Skeleton } from '../../ui/semi';
import { useHashAnchor } from '../../kit/visibility/use-hash-anchor';
import { COMMENTS_ID, commentIdOf } from './comment-anchor';
import './comments.css';

const CommentSectionCode = lazy(async () => ({ default: (await import('./CommentSection')).CommentSection }));

/** A comment's part of the comments: the anchor holds the section until it is drawn. */
const isComment = (part: string) => commentIdOf(part) > 0;

/**
 * `CommentSection`, with its heading and a skeleton while its code arrives; a link to `#comments` is
 * taken to it, one to `#comment-<id>` to that comment once drawn (to the section until then), and
 * kept there while the page above it settles.
 */
export function LazyCommentSection(props: { type: number; targetId: number; onCount?: (count: number) => void }) {
  useHashAnchor(COMMENTS_ID, isComment);
  const loading = (
    <section className="app-comments" id={COMMENTS_ID} aria-labelledby="comments-title" aria-busy="true">
      <h2 id="comments-title" className="app-comments__title">
        评论
      </h2>
      <Skeleton.Paragraph rows={3} />
    </section>
  );
  return (
    <Suspense fallback={loading}>
      <CommentSectionCode {...props} />
    </Suspense>
  );
}
