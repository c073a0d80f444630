import { MyReadingHistory } from '../../features/reading-history/MyReadingHistory';
import './member.css';

/** `/member/reading`: the member's 最近阅读. */
export function MemberReadingPage() {
  return <MyReadingHistory />;
}
