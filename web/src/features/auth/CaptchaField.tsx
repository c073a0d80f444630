// The captcha of login, register and find-password, when the security settings ask for one.
import { useQuery } from '@tanstack/react-query';
import { checkRequired } from '../../kit/forms/checks';
import { TextField } from '../../ui/FormField';
import { captchaQuery, type CaptchaKind } from '../user/api';
import type { ApiResult } from '../../api/client';
import './captcha.css';

export interface CaptchaState {
  /** Whether the form must send a captcha. */
  required: boolean;
  id: string | undefined;
  image: string | undefined;
  audio: boolean;
  /** an 算术 captcha: the answer is the sum it shows */
  math: boolean;
  loading: boolean;
  failed: boolean;
  /** Fetches a new captcha (on click, and after a failed submit: the backend consumes it). */
  refresh: () => void;
}

/** Whether the settings ask for a captcha on this action (an omitted switch is false). */
export function captchaEnabled(security: object | undefined, kind: CaptchaKind): boolean {
  const key = kind === 'find_password' ? 'enable_captcha_find_password' : `enable_captcha_${kind}`;
  return (security as Record<string, unknown> | undefined)?.[key] === true;
}

/** The captcha of an action from `GET /api/v1/user/captcha`, when the settings enable it. */
export function useCaptcha(kind: CaptchaKind, enabled: boolean): CaptchaState {
  const { data, isFetching, isError, refetch } = useQuery(captchaQuery(kind, enabled));
  return {
    required: enabled && data?.enable !== false,
    id: data?.id,
    image: data?.captcha,
    // By what came, not by its type: our backend draws every type as an image, 语音 included
    // (docs/api.md §3); a MOREDOC backend sends 语音 as a WAV.
    audio: data?.captcha?.startsWith('data:audio/') === true,
    math: data?.type === 'math',
    loading: isFetching,
    failed: isError,
    refresh: () => void refetch(),
  };
}

/** The check of the typed captcha, when one is required. */
export function captchaProblem(captcha: CaptchaState, text: string): string | undefined {
  return captcha.required ? checkRequired(text, '请输入验证码') : undefined;
}

/**
 * Whether a failed call was refused for its captcha (wrong, expired or used up) rather than for the rest of the form.
 */
export function isCaptchaRefusal(result: ApiResult<unknown>): boolean {
  return !result.ok && /验证码/.test(result.data.message);
}

/** What a request carries for the captcha: the typed text and the captcha's id, when one is required. */
export function captchaFields(captcha: CaptchaState, text: string): { captcha?: string; captcha_id?: string } {
  return captcha.required ? { captcha: text.trim(), captcha_id: captcha.id } : {};
}

export function CaptchaField({
  captcha,
  value,
  onChange,
  error,
  id = 'captcha',
}: {
  captcha: CaptchaState;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Another id where the page under a dialog may hold a captcha field of its own. */
  id?: string;
}) {
  if (!captcha.required) return null;
  const media = captcha.audio ? (
    captcha.image ? (
      <audio controls src={captcha.image} aria-label="语音验证码" />
    ) : null
  ) : (
    <button
      type="button"
      className="app-captcha"
      onClick={captcha.refresh}
      title="看不清？换一张"
      aria-label="换一张验证码"
    >
      {captcha.loading ? (
        '正在加载…'
      ) : captcha.failed ? (
        '点击重试'
      ) : captcha.image ? (
        <img src={captcha.image} alt="验证码" />
      ) : (
        '获取验证码'
      )}
    </button>
  );
  return (
    <TextField
      id={id}
      label="验证码"
      value={value}
      onChange={onChange}
      error={error}
      placeholder={captcha.math ? '请输入计算结果' : '请输入验证码'}
      autoComplete="off"
      maxLength={12}
      addon={media}
    />
  );
}
