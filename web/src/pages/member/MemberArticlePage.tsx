import { MyArticles } from '../../features/article/MyArticles';
import { useSession } from '../../features/session/use-session';
import './member.css';

/** `/member/article`: the member's articles, with 写文章. */
export function MemberArticlePage() {
  const { user } = useSession();
  return <MyArticles userId={user?.id ?? 0} />;
}
