import { useMutation, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../api/client';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { signedTodayQuery, signToday } from '../user/api';

/** The daily check-in, once a day; the award is paid in `creditName`. */
export function CheckInButton({ creditName }: { creditName: string }) {
  const signed = useQuery(signedTodayQuery());
  const sign = useMutation({
    mutationFn: async (_: void, context) => unwrap(await signToday(context)),
    onSuccess: (record) => toast.success('签到成功', record.award ? `获得 ${record.award} ${creditName}` : undefined),
    onError: (failure) => {
      toastFailure('签到失败', failure);
      // Signed in another tab or on another device today (您今天已经签到过了): the button says so.
      void signed.refetch();
    },
  });
  if (signed.isPending) return <Button disabled>签到</Button>;
  if (signed.data) return <Button disabled>今日已签到</Button>;
  return (
    <Button theme="solid" loading={sign.isPending} onClick={() => sign.mutate()}>
      每日签到
    </Button>
  );
}
