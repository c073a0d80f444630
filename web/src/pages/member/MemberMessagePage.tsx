import { MessageCentre } from '../../features/message/MessageCentre';
import { useSession } from '../../features/session/use-session';

/** `/member/message`: the member's 消息 centre. */
export function MemberMessagePage() {
  const { user } = useSession();
  return <MessageCentre userId={user?.id ?? 0} />;
}
