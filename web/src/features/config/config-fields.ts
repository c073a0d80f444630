// A config category's rows (contract: config-keys.md) as a described form: each row's
// `input_type` picks the input, `options` the choices, `col_num` the width; values travel
// as strings and are converted to and from what the inputs hold.
import type { Config } from '../../../../shared/types/config';
import type { FieldDef, FormValues, SelectOption } from '../../kit/admin-resource/resource';
import { imageUploadTarget } from '../upload/api';
import { EMAIL_PATTERN } from '../../../../shared/validation';
import { createElement } from 'react';
import { VipPlanEditor, vipPlansError } from '../vip/VipPlanEditor';


/** Checks of keys whose value other code parses (the backend refuses the same values). */
const KEY_CHECKS: Readonly<Record<string, (value: string) => string | undefined>> = {
  'system.domain': (v) =>
    /^https?:\/\/[^\s/]+(:\d+)?\/?$/.test(v.trim()) ? undefined : '网站域名必须以 http:// 或 https:// 开头，例如 https://example.com',
  'email.test_email': (v) => (EMAIL_PATTERN.test(v.trim()) ? undefined : '测试邮箱格式不正确'),
  'email.username': (v) => (EMAIL_PATTERN.test(v.trim()) ? undefined : 'SMTP 账号应为发件邮箱地址'),
  'vip.plans': (v) => vipPlansError(v),
};

/** Number keys with their own bounds; every other number is a non-negative integer. */
const NUMBER_BOUNDS: Readonly<Record<string, { min?: number; max?: number }>> = {
  'converter.max_preview_percent': {},
  'email.duration': { min: 1, max: 60 },
};

/** `value:label` per line; a bare line is its own label (document extensions). */
export function parseOptions(options: string | undefined): SelectOption[] {
  return (options ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0 ? { value: line, label: line } : { value: line.slice(0, colon), label: line.slice(colon + 1) || line.slice(0, colon) };
    });
}

const TRUE_VALUES = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** The stored string as the input's value (the backend reads switches with Go's ParseBool). */
export function fromWire(row: Config): unknown {
  const value = row.value ?? '';
  switch (row.input_type) {
    case 'switch':
      return TRUE_VALUES.has(value.trim());
    case 'number':
      return value.trim() === '' || !Number.isFinite(Number(value)) ? undefined : Number(value);
    case 'select-multi':
      return value.split(',').map((v) => v.trim()).filter(Boolean);
    default:
      return value;
  }
}

/** The input's value as the string the backend stores. */
export function toWire(row: Config, value: unknown): string {
  switch (row.input_type) {
    case 'switch':
      return value === true ? 'true' : 'false';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
    case 'select-multi':
      return Array.isArray(value) ? value.map(String).join(',') : '';
    default:
      return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  }
}

export function configValues(rows: readonly Config[]): FormValues {
  return Object.fromEntries(rows.map((row) => [row.name ?? '', fromWire(row)]));
}

/** The field describing one row. */
export function configField(row: Config): FieldDef<FormValues> {
  const key = `${row.category ?? ''}.${row.name ?? ''}`;
  const base = {
    name: row.name ?? '',
    label: row.label || row.name || '',
    hint: row.placeholder || undefined,
    half: (row.col_num ?? 24) <= 12,
    ...(KEY_CHECKS[key] ? { validate: KEY_CHECKS[key] } : {}),
  };
  // The plans are edited as a table of plans; the value stays the config's text.
  if (key === 'vip.plans') {
    return {
      ...base,
      kind: 'custom',
      render: ({ id, value, onChange, invalid }) => createElement(VipPlanEditor, { id, value: String(value ?? ''), onChange, invalid }),
    };
  }
  switch (row.input_type) {
    case 'textarea':
      return { ...base, kind: 'textarea' };
    case 'number':
      // The backend stores integers only, never an empty value.
      return { ...base, kind: 'number', integer: true, required: true, ...(NUMBER_BOUNDS[key] ?? { min: 0 }) };
    case 'switch':
      return { ...base, kind: 'switch' };
    case 'select':
      return { ...base, kind: 'select', options: parseOptions(row.options) };
    case 'select-multi':
      return { ...base, kind: 'select', multiple: true, options: parseOptions(row.options) };
    case 'password':
      return { ...base, kind: 'password', hint: base.hint ?? '显示为 ****** 时表示已设置，不修改则保持原值' };
    case 'image':
      return { ...base, kind: 'image', upload: imageUploadTarget('config') };
    default:
      return { ...base, kind: 'text' };
  }
}
