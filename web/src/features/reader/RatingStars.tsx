// A document's rating (1–5 ★, its average and how many rated it, or 暂无评分) and the member's
// own vote: one vote per member, which the server keeps.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { loginReasonState } from '../auth/login-reason';
import type { Document } from '../../../../shared/types/document';
import { unwrap } from '../../api/client';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { documentScoreQuery, rateDocument } from '../document/api';
import { useSession } from '../session/use-session';

const STARS = [1, 2, 3, 4, 5] as const;

/** The stored score is the average × 100 (100…500). */
export const starsOf = (score: number | undefined) => (score ? score / 100 : 0);

function Stars({ value, label }: { value: number; label: string }) {
  return (
    <span className="app-stars" role="img" aria-label={label}>
      {STARS.map((star) => (
        <span key={star} className={star <= Math.round(value) ? 'app-stars__on' : 'app-stars__off'} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  );
}

function MemberVote({ doc }: { doc: Document }) {
  const id = doc.id ?? 0;
  const mine = useQuery(documentScoreQuery(id));
  const [hover, setHover] = useState(0);
  const promptId = useId();
  const rate = useMutation({
    mutationFn: async (stars: number, context) => unwrap(await rateDocument(id, stars, context)),
    onSuccess: () => toast.success('评分成功', '感谢您的评价'),
    onError: (error) => toastFailure('评分失败', error),
  });
  const given = starsOf(mine.data?.score);
  // Once, when the rating voted shows.
  const mineRef = useRef<HTMLSpanElement>(null);
  const votedHere = rate.isSuccess && given > 0;
  useEffect(() => {
    if (votedHere && document.activeElement === document.body) mineRef.current?.focus();
  }, [votedHere]);
  if (mine.isPending) return <span className="app-rating__mine">…</span>;
  if (given > 0)
    return (
      // The stars give way to the member's rating: a star voted with, gone, leaves the focus here.
      <span className="app-rating__mine" tabIndex={-1} ref={mineRef}>
        您的评分：{given} 星
      </span>
    );
  // Named in sight: beside the average's grey stars, unnamed ones read as a second average.
  return (
    <span className="app-rating__vote" role="group" aria-labelledby={promptId} onMouseLeave={() => setHover(0)}>
      <span id={promptId} className="app-rating__prompt">
        给文档评分
      </span>
      {STARS.map((star) => (
        <button
          key={star}
          type="button"
          className={star <= hover ? 'app-rating__star app-rating__star--on' : 'app-rating__star'}
          aria-label={`评 ${star} 星`}
          disabled={rate.isPending}
          onMouseEnter={() => setHover(star)}
          onFocus={() => setHover(star)}
          onClick={() => rate.mutate(star)}
        >
          ★
        </button>
      ))}
    </span>
  );
}

export function RatingStars({ doc }: { doc: Document }) {
  const { loggedIn } = useSession();
  const { pathname, search } = useLocation();
  const count = doc.score_count ?? 0;
  // Nobody rated: MOREDOC still stores its default score (300), which is no one's opinion.
  const average = count > 0 ? starsOf(doc.score) : 0;
  return (
    <div className="app-rating">
      {count > 0 ? (
        <>
          <Stars value={average} label={`评分 ${average.toFixed(1)} 分`} />
          <span className="app-rating__average">{average.toFixed(1)}</span>
          <span className="app-rating__count">（{count} 人评分）</span>
        </>
      ) : (
        <>
          <Stars value={0} label="暂无评分" />
          <span className="app-rating__count">暂无评分</span>
        </>
      )}
      {loggedIn ? (
        <MemberVote doc={doc} />
      ) : (
        <Link state={loginReasonState('rate')} to={loginLocation(pathname + search)} className="app-rating__login">
          登录后评分
        </Link>
      )}
    </div>
  );
}
