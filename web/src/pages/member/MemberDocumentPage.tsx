import { AdSlot } from '../../features/advertisement/AdSlot';
import { MyDocuments } from '../../features/document/MyDocuments';
import { useSession } from '../../features/session/use-session';
import './member.css';

/** `/member/document`: the member's uploads, under the member area's document ad slot. */
export function MemberDocumentPage() {
  const { user } = useSession();
  return (
    <>
      <AdSlot slot="user_document_top" />
      <MyDocuments userId={user?.id ?? 0} />
    </>
  );
}
