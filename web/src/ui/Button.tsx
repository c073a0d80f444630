// Semi's Button, keeping the keyboard's place while it is busy. Semi draws a busy button (`loading`)
// with another component than an idle one, so React replaces its <button> and the focus falls to
// the page: a keyboard that pressed 收藏 or 保存 had to Tab from the top again. The new one takes
// the focus back when the old one had it.
import { useId, useLayoutEffect, useState } from 'react';
import SemiButton, { type ButtonProps } from '@douyinfe/semi-ui-19/lib/es/button';

export type { ButtonProps };

export function Button(props: ButtonProps) {
  const ownId = useId();
  const id = props.id ?? ownId;
  const busy = Boolean(props.loading);
  // Whether the <button> had the focus when it last turned busy or idle: read while rendering,
  // before the swap is committed, when the focused <button> is still the old one.
  const [turn, setTurn] = useState({ busy, hadFocus: false });
  if (turn.busy !== busy) setTurn({ busy, hadFocus: document.activeElement?.id === id });
  useLayoutEffect(() => {
    const button = document.getElementById(id);
    if (turn.hadFocus && button && document.activeElement !== button) button.focus();
  }, [turn, id]);
  return <SemiButton {...props} id={id} />;
}
