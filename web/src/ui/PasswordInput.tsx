// A password box with a button that shows or hides what was typed, named in Chinese. Semi's
// own (Input mode="password") names its button "Show password" / "Hidden password" whatever the
// locale, and is a div with role="button": a screen reader of a Chinese site read English there.
import { useState, type ComponentProps } from 'react';
import { IconEyeClosedSolid, IconEyeOpened } from './icons';
import { Input } from './semi-extra';
import './form.css';

export type PasswordInputProps = Omit<ComponentProps<typeof Input>, 'mode' | 'type' | 'suffix'>;

export function PasswordInput(props: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <Input
      {...props}
      type={shown ? 'text' : 'password'}
      suffix={
        props.disabled ? undefined : (
          <button
            type="button"
            className="app-password-toggle"
            aria-label={shown ? '隐藏密码' : '显示密码'}
            aria-pressed={shown}
            onClick={() => setShown((now) => !now)}
          >
            {shown ? <IconEyeOpened /> : <IconEyeClosedSolid />}
          </button>
        )
      }
    />
  );
}
