// The header's way to the 消息 centre: a bell with the number of unread messages (99+ above
// 99), named for screen readers with the count.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { IconBell } from '../../ui/icons';
import { unreadMessagesQuery } from './api';
import './message.css';

export function MessageLink({ userId }: { userId: number }) {
  const unread = useQuery(unreadMessagesQuery(userId)).data ?? 0;
  return (
    <Link to="/member/message" className="app-message-link" aria-label={unread ? `消息，${unread} 条未读` : '消息'}>
      <IconBell />
      <span className="app-message-link__text">消息</span>
      {unread > 0 && (
        <span className="app-message-link__badge" aria-hidden>
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
