// Confirmation before a destructive or batch change; optionally asks for the admin's own
// password (deleting users needs it, contract: DeleteUser), or for the one value an action
// needs (a category, a reason, a reply).
import { useState } from 'react';
import { Button } from '../../ui/semi';
import { PasswordInput } from '../../ui/PasswordInput';
import { Modal, Select, TextArea } from '../../ui/semi-admin';
import type { ActionInput, BatchChoice, ChoiceValue } from './resource';
import { dialogWidth } from '../../ui/fit';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  note?: string;
  okText: string;
  danger?: boolean;
  askPassword?: boolean;
  /** A value to choose before confirming (batch actions that set something). */
  choice?: BatchChoice;
  /** Or text to write before confirming (a reason, a reply). */
  input?: ActionInput;
  busy: boolean;
  onConfirm: (password?: string, value?: ChoiceValue) => void;
  onCancel: () => void;
}

const isEmptyChoice = (value: ChoiceValue | undefined) =>
  value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

export function ConfirmDialog({
  title,
  message,
  note,
  okText,
  danger,
  askPassword,
  choice,
  input,
  busy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [chosen, setChosen] = useState<ChoiceValue>();
  const [choiceError, setChoiceError] = useState<string>();
  const [text, setText] = useState(input?.initial ?? '');
  const [textError, setTextError] = useState<string>();
  const confirm = () => {
    if (choice && isEmptyChoice(chosen)) {
      setChoiceError(choice.emptyMessage);
      return;
    }
    if (askPassword && !password) {
      setError('请输入您的登录密码');
      return;
    }
    const written = text.trim();
    if (input?.requiredMessage && !written) {
      setTextError(input.requiredMessage);
      return;
    }
    if (input && [...written].length > input.maxLength) {
      setTextError(`${input.label}长度不能超过 ${input.maxLength} 个字符`);
      return;
    }
    onConfirm(askPassword ? password : undefined, choice ? chosen : input ? written : undefined);
  };
  // Something written or chosen: a stray click beside the dialog must not throw it away.
  const edited = password !== '' || !isEmptyChoice(chosen) || text !== (input?.initial ?? '');
  return (
    <Modal
      visible
      title={title}
      onCancel={busy ? undefined : onCancel}
      maskClosable={!busy && !edited}
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
      width={dialogWidth(440)}
    >
      <p className="app-confirm__message">{message}</p>
      {note && <p className="app-confirm__note">{note}</p>}
      {choice && (
        <div className="app-field">
          <label className="app-field__label" id="confirm-choice-label" htmlFor="confirm-choice">
            {choice.label}
          </label>
          <Select
            id="confirm-choice"
            aria-labelledby="confirm-choice-label"
            value={chosen}
            multiple={choice.multiple}
            filter
            optionList={choice.options.map((o) => ({ value: o.value, label: o.label }))}
            onChange={(value) => {
              setChosen(value as ChoiceValue);
              setChoiceError(undefined);
            }}
            placeholder={`请选择${choice.label}`}
            validateStatus={choiceError ? 'error' : 'default'}
            style={{ width: '100%' }}
          />
          {choiceError && (
            <p className="app-field__error" role="alert">
              {choiceError}
            </p>
          )}
        </div>
      )}
      {input && (
        <div className="app-field">
          <label className="app-field__label" htmlFor="confirm-input">
            {input.label}
          </label>
          <TextArea
            id="confirm-input"
            value={text}
            onChange={(value: string) => {
              setText(value);
              setTextError(undefined);
            }}
            placeholder={input.placeholder}
            rows={input.rows ?? 3}
            maxCount={input.maxLength}
            validateStatus={textError ? 'error' : 'default'}
            aria-invalid={textError ? true : undefined}
          />
          {textError && (
            <p className="app-field__error" role="alert">
              {textError}
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
          <PasswordInput
            id="confirm-password"
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
