import { MyDocuments } from '../../features/document/MyDocuments';
import { useSession } from '../../features/session/use-session';
import './member.css';

/** `/member/document`: the member's uploads. */
export function MemberDocumentPage() {
  const { user } = useSession();
  return <MyDocuments userId={user?.id ?? 0} />;
}
