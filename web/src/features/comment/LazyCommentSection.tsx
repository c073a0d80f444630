// The comments' code (the form, the captcha, the checks) loads apart from the screen that shows
// them: a reader's first page image or an article's text never waits for it.
import { Suspense } from 'react';
import { lazy } from '../../ui/lazy';
import { Skeleton } from '../../ui/semi';
import './comments.css';

const CommentSectionCode = lazy(async () => ({ default: (await import('./CommentSection')).CommentSection }));

/** `CommentSection`, with its heading and a skeleton while its code arrives. */
export function LazyCommentSection(props: { type: number; targetId: number; onCount?: (count: number) => void }) {
  const loading = (
    <section className="app-comments" aria-labelledby="comments-title" aria-busy="true">
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
