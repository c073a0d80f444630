import { MyArticleEditor } from '../../features/article/MyArticleEditor';
import './member.css';

/** `/member/article/set`: write an article, or edit the member's own of `?id=`. */
export function MemberArticleSetPage() {
  return <MyArticleEditor />;
}
