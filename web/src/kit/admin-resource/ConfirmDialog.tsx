// Confirmation before a destructive or batch change; optionally asks for the admin's own
// password (deleting users needs it, contract: DeleteUser), or for the one value an action
// needs (a category, a reason, a reply).
import { useState } from 'react';
import { Button, Input } from '../../ui/semi';
import { Modal } from '../../ui/semi-admin';
import type { ActionInput } from './resource';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  note?: string;
  okText: string;
  danger?: boolean;
  askPassword?: boolean;
  input?: ActionInput;
  busy: boolean;
  onConfirm: (password?: string, input?: unknown) => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, message, note, okText, danger, askPassword, input, busy, onConfirm, onCancel }: ConfirmDialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [value, setValue] = useState<unknown>(input?.initial);
  const [inputError, setInputError] = useState<string>();
  const confirm = () => {
    if (askPassword && !password) {
      setError('请输入您的登录密码');
      return;
    }
    const problem = input?.check?.(value);
    if (problem) {
      setInputError(problem);
      return;
    }
    onConfirm(askPassword ? password : undefined, input ? value : undefined);
  };
  return (
    <Modal
      visible
      title={title}
      onCancel={busy ? undefined : onCancel}
      maskClosable={!busy}
      footer={
        // Our own buttons: Semi's default ones are named "confirm"/"cancel" for screen readers.
        <div className="app-resource-form__footer">
          <Button onClick={onCancel} disabled={busy}>
            取消
          </Button>
          <Button type={danger ? 'danger' : 'primary'} theme="solid" loading={busy} onClick={confirm}>
            {okText}
          </Button>
        </div>
      }
      width="min(440px, calc(100vw - 32px))"
    >
      <p className="app-confirm__message">{message}</p>
      {note && <p className="app-confirm__note">{note}</p>}
      {input && (
        <div className="app-field">
          <label className="app-field__label" id="confirm-input-label" htmlFor="confirm-input">
            {input.label}
          </label>
          {input.render({
            id: 'confirm-input',
            value,
            onChange: (next) => {
              setValue(next);
              setInputError(undefined);
            },
            invalid: Boolean(inputError),
          })}
          {inputError && (
            <p className="app-field__error" role="alert">
              {inputError}
            </p>
          )}
        </div>
      )}
      {askPassword && (
        <form
          className="app-field"
          onSubmit={(event) => {
            event.preventDefault();
            confirm();
          }}
        >
          <label className="app-field__label" htmlFor="confirm-password">
            请输入您的登录密码以确认
          </label>
          <Input
            id="confirm-password"
            mode="password"
            autoComplete="current-password"
            value={password}
            onChange={(value: string) => {
              setPassword(value);
              setError(undefined);
            }}
            validateStatus={error ? 'error' : 'default'}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'confirm-password-message' : undefined}
          />
          {error && (
            <p id="confirm-password-message" className="app-field__error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </Modal>
  );
}
