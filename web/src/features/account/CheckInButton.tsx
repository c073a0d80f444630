import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
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
  // Pressed here, 每日签到 turns into a disabled 今日已签到, which no focus can stay on: the browser
  // dropped it on the page's <body>, and a keyboard had to Tab from the top again. It stays here,
  // on what holds 今日已签到, which a screen reader then reads.
  const done = useRef<HTMLSpanElement>(null);
  const doneHere = !sign.isIdle && !!signed.data;
  useEffect(() => {
    const holder = done.current;
    const focused = document.activeElement;
    if (doneHere && holder && (!focused || focused === document.body || holder.contains(focused))) holder.focus();
  }, [doneHere]);
  if (signed.isPending) return <Button disabled>签到</Button>;
  if (signed.data)
    return (
      <span ref={done} tabIndex={-1}>
        <Button disabled>今日已签到</Button>
      </span>
    );
  return (
    <Button theme="solid" loading={sign.isPending} onClick={() => sign.mutate()}>
      每日签到
    </Button>
  );
}
