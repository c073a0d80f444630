import { MyFavorites } from '../../features/favorite/MyFavorites';
import './member.css';

/** `/member/favorite`: the member's favourite documents. */
export function MemberFavoritePage() {
  return <MyFavorites />;
}
