// Whether this reader may select and copy a document's text (`display.copy_text`: everybody,
// members, VIP members or nobody), or the reason why not, in the reader's words.
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../session/use-session';
import { useSettings } from '../settings/use-settings';
import { myVipQuery } from '../vip/api';

export function useCopyText(): true | string {
  const { display = {} } = useSettings();
  const { user } = useSession();
  const rule = display.copy_text || 'all';
  const vip = useQuery({ ...myVipQuery(), enabled: rule === 'vip' && !!user });
  if (rule === 'all') return true;
  if (rule === 'none') return '本站未开放复制文档文字';
  if (rule === 'member') return user ? true : '登录后即可复制文档文字';
  return vip.data?.active ? true : '开通 VIP 会员后即可复制文档文字';
}
