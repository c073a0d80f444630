import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { loginLocation } from '../../../../shared/access';
import { unwrap } from '../../api/client';
import { useOneAtATime } from '../../api/one-at-a-time';
import { loginReasonState } from '../auth/login-reason';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { IconStar, IconStarStroked } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { useSession } from '../session/use-session';
import { articleFavoriteQuery, toggleArticleFavorite } from './api';

/** 收藏 / 已收藏 for an article (FavoriteAPI type 1); visitors are sent to log in first. */
export function FavoriteButton({ articleId }: { articleId: number }) {
  const { loggedIn } = useSession();
  const location = useLocation();
  const favorite = useQuery({ ...articleFavoriteQuery(articleId), enabled: loggedIn });
  const favoriteId = favorite.data?.id;
  // The favourite being removed is the mutation's variable: by the time it settles, the
  // refetched state says the opposite of what was done.
  const toggle = useMutation({
    mutationFn: async (removing: number | undefined, context) =>
      unwrap(await toggleArticleFavorite(articleId, removing, context)),
    onSuccess: (_, removing) => toast.success(removing ? '已取消收藏' : '收藏成功'),
    onError: (error, removing) => toastFailure(removing ? '取消收藏失败' : '收藏失败', error),
  });
  // One toggle at a time, as the document's 收藏.
  const toggleOnce = useOneAtATime(toggle);
  const start = () => toggleOnce(favoriteId);
  if (!loggedIn) {
    return (
      <Link
        className="app-article__action-link"
        to={loginLocation(location.pathname + location.search)}
        state={loginReasonState('favoriteArticle')}
        title="登录后收藏"
      >
        <IconStarStroked /> 收藏
      </Link>
    );
  }
  return (
    <Button
      theme="borderless"
      type={favoriteId ? 'warning' : 'tertiary'}
      icon={favoriteId ? <IconStar /> : <IconStarStroked />}
      loading={toggle.isPending}
      disabled={favorite.isPending}
      aria-pressed={Boolean(favoriteId)}
      aria-label={favoriteId ? '已收藏' : '收藏'}
      onClick={start}
    >
      {favoriteId ? '已收藏' : '收藏'}
    </Button>
  );
}
