// Labelled form fields (a Semi input, a text area, a group of checkboxes) with their validation
// message or hint, announced to screen readers.
import type { ReactNode } from 'react';
import { PasswordInput } from './PasswordInput';
import { Input } from './semi-extra';
import './form.css';

/** The field's error, announced, or else its hint: what the input's aria-describedby names. */
export function FieldMessage({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (error) {
    return (
      <p id={id} className="app-field__error" role="alert">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="app-field__hint">
      {hint}
    </p>
  ) : null;
}

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
  const {
    id,
    label,
    value,
    onChange,
    error,
    type = 'text',
    placeholder,
    autoComplete,
    maxLength,
    disabled,
    prefix,
    suffix,
    addon,
    hint,
  } = props;
  const messageId = `${id}-message`;
  const common = {
    id,
    name: id,
    value,
    onChange: (next: string) => onChange(next),
    placeholder,
    autoComplete,
    maxLength,
    disabled,
    prefix,
    size: 'large' as const,
    validateStatus: error ? ('error' as const) : ('default' as const),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
  };
  return (
    <div className="app-field">
      <label className="app-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="app-field__control">
        {type === 'password' ? <PasswordInput {...common} /> : <Input {...common} type={type} suffix={suffix} />}
        {addon}
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export interface TextAreaFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
  /** Shows `n / max` under the field; typing past it is left to the check, which names the limit. */
  max?: number;
  rows?: number;
  disabled?: boolean;
  hint?: string;
  /** Keeps the label for screen readers only (a comment box under its heading). */
  hideLabel?: boolean;
}

/** A labelled multi-line input (a plain textarea: Semi's TextArea is an admin-only chunk). */
export function TextAreaField(props: TextAreaFieldProps) {
  const { id, label, value, onChange, error, placeholder, max, rows = 4, disabled, hint, hideLabel } = props;
  const messageId = `${id}-message`;
  const countId = `${id}-count`;
  const length = [...value].length;
  // The count is part of what the box is described by, read as the box is reached; it is no live
  // region, which read "1 / 1000", "2 / 1000"… aloud over every character typed.
  const describedBy = [error || hint ? messageId : '', max !== undefined ? countId : ''].filter(Boolean).join(' ');
  return (
    <div className="app-field">
      <label className={hideLabel ? 'app-visually-hidden' : 'app-field__label'} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={id}
        className="app-textarea"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        rows={rows}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      <div className="app-field__footer">
        {/* Without a message, an empty span keeps the count at the end of the line. */}
        {error || hint ? <FieldMessage id={messageId} error={error} hint={hint} /> : <span />}
        {max !== undefined && (
          <span id={countId} className={`app-field__count${length > max ? ' app-field__count--over' : ''}`}>
            {length} / {max}
          </span>
        )}
      </div>
    </div>
  );
}

export interface CheckboxGroupFieldProps<T extends string | number> {
  id: string;
  label: string;
  options: readonly { value: T; label: string }[];
  value: readonly T[];
  onChange: (value: T[]) => void;
  /** Said in place of the boxes when there is nothing to choose (a link to where to add some). */
  empty: ReactNode;
}

/** Several choices among few (an article's categories): a named group of checkboxes, one tap each. */
export function CheckboxGroupField<T extends string | number>({
  id,
  label,
  options,
  value,
  onChange,
  empty,
}: CheckboxGroupFieldProps<T>) {
  const chosen = new Set(value);
  const toggle = (option: T, on: boolean) => onChange(on ? [...value, option] : value.filter((v) => v !== option));
  return (
    <fieldset className="app-field app-checkbox-group" id={id}>
      <legend className="app-field__label">{label}</legend>
      {options.length === 0 ? (
        <p className="app-field__hint">{empty}</p>
      ) : (
        <div className="app-checkbox-group__options">
          {options.map((option) => (
            <label key={option.value} className="app-checkbox-group__option">
              <input
                type="checkbox"
                checked={chosen.has(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
