// A labelled Semi input with its validation message, announced to screen readers.
import type { ReactNode } from 'react';
import { Input } from './semi';
import './form.css';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: 'text' | 'password' | 'email' | 'tel';
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  disabled?: boolean;
  prefix?: ReactNode;
  suffix?: ReactNode;
  /** Content next to the input (a captcha image, a send-code button). */
  addon?: ReactNode;
  hint?: string;
}

export function TextField(props: TextFieldProps) {
  const { id, label, value, onChange, error, type = 'text', placeholder, autoComplete, maxLength, disabled, prefix, suffix, addon, hint } = props;
  const messageId = `${id}-message`;
  return (
    <div className="app-field">
      <label className="app-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="app-field__control">
        <Input
          id={id}
          name={id}
          value={value}
          onChange={(next: string) => onChange(next)}
          mode={type === 'password' ? 'password' : undefined}
          type={type === 'password' ? undefined : type}
          placeholder={placeholder}
          autoComplete={autoComplete}
          maxLength={maxLength}
          disabled={disabled}
          prefix={prefix}
          suffix={suffix}
          size="large"
          validateStatus={error ? 'error' : 'default'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? messageId : undefined}
        />
        {addon}
      </div>
      {error ? (
        <p id={messageId} className="app-field__error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="app-field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
