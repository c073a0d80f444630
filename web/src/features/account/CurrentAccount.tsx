// The member screens show the signed-in user's account as the server has it now: loaded
// afresh on each visit, with its loading and error states.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { User } from '../../../../shared/types/user';
import { errorMessage } from '../../api/client';
import { Skeleton } from '../../ui/semi';
import { ErrorState } from '../../ui/states';
import { currentUserQuery } from '../session/session-actions';

export function CurrentAccount({
  loadingRows,
  children,
}: {
  loadingRows: number;
  children: (user: User) => ReactNode;
}) {
  const current = useQuery(currentUserQuery());
  if (current.isPending) {
    return (
      <section className="app-panel">
        <Skeleton.Paragraph rows={loadingRows} />
      </section>
    );
  }
  if (current.isError) {
    return (
      <section className="app-panel">
        <ErrorState message={errorMessage(current.error, '账号信息加载失败')} onRetry={() => void current.refetch()} />
      </section>
    );
  }
  return children(current.data);
}
