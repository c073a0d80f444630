// Checks of a described form, run before anything is sent; the messages are the ones the
// admin reads under each input.
import type { FieldContext, FieldDef, FormMode, FormValues } from './resource';

export type FieldErrors = Record<string, string>;

export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export function fieldShown(field: { modes?: readonly FormMode[] }, mode: FormMode): boolean {
  return !field.modes || field.modes.includes(mode);
}

export function fieldReadOnly(field: { readOnly?: boolean | ((mode: FormMode) => boolean) }, mode: FormMode): boolean {
  return typeof field.readOnly === 'function' ? field.readOnly(mode) : field.readOnly === true;
}

export function requiredMessage(field: FieldDef<FormValues, never>): string {
  switch (field.kind) {
    case 'select':
    case 'tree-select':
      return `请选择${field.label}`;
    case 'image':
      return `请上传${field.label}`;
    case 'custom':
      return field.emptyMessage ?? `请填写${field.label}`;
    default:
      return `请输入${field.label}`;
  }
}

const length = (value: string) => [...value].length;

/** What a colour field takes: what every browser and the colour picker read alike. */
const COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const COLOR_PROBLEM = '必须是 # 开头的 3 位或 6 位十六进制颜色，例如 #1677ff 或 #f60';

/** `#rgb` / `#rrggbb` (trimmed) as the picker's `#rrggbb`, lower case; undefined for anything else. */
export function colorHex(value: string): string | undefined {
  const text = value.trim();
  if (!COLOR_PATTERN.test(text)) return undefined;
  const hex = text.length === 4 ? `#${[...text.slice(1)].map((c) => c + c).join('')}` : text;
  return hex.toLowerCase();
}

/** The range of MOREDOC's int32 fields (sort, price, …): a number past it is refused by the server. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** The message for one field's value, or undefined when it is acceptable. */
export function fieldError<Values extends FormValues, Row>(
  field: FieldDef<Values, Row>,
  values: Values,
  context: FieldContext<Row>,
): string | undefined {
  const value = values[field.name];
  if (isEmptyValue(value)) return field.required ? requiredMessage(field as FieldDef<FormValues, never>) : undefined;
  switch (field.kind) {
    case 'text':
    case 'password':
    case 'textarea': {
      const text = String(value);
      if (field.minLength !== undefined && length(text) < field.minLength)
        return `${field.label}不能少于 ${field.minLength} 个字符`;
      if (field.maxLength !== undefined && length(text) > field.maxLength)
        return `${field.label}不能超过 ${field.maxLength} 个字符`;
      if (field.pattern && !field.pattern.regex.test(text)) return field.pattern.message;
      break;
    }
    case 'number': {
      const number = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(number)) return `${field.label}必须是数字`;
      if (field.integer && !Number.isInteger(number)) return `${field.label}必须是整数`;
      // An integer column without bounds of its own still has the wire's (int32).
      const min = field.min ?? (field.integer ? INT32_MIN : undefined);
      const max = field.max ?? (field.integer ? INT32_MAX : undefined);
      if (min !== undefined && number < min) return `${field.label}不能小于 ${min}`;
      if (max !== undefined && number > max) return `${field.label}不能大于 ${max}`;
      break;
    }
    case 'color':
      if (!colorHex(String(value))) return `${field.label}${COLOR_PROBLEM}`;
      break;
    default:
      break;
  }
  return field.validate?.(value as never, values, context);
}

/** Messages of every shown, editable field that fails its checks (empty object: valid). */
export function validateForm<Values extends FormValues, Row>(
  fields: readonly FieldDef<Values, Row>[],
  values: Values,
  context: FieldContext<Row>,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of fields) {
    if (!fieldShown(field, context.mode) || fieldReadOnly(field, context.mode)) continue;
    const message = fieldError(field, values, context);
    if (message) errors[field.name] = message;
  }
  return errors;
}

/** `http(s)://…` or a site path `/…`: what navigation items, banners and friend links may link to. */
export function checkLink(value: string, label: string, options: { sitePath?: boolean } = {}): string | undefined {
  const text = value.trim();
  if (options.sitePath && text.startsWith('/') && !text.startsWith('//')) return undefined;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    // fall through
  }
  return options.sitePath ? `${label}必须以 http://、https:// 或 / 开头` : `${label}必须以 http:// 或 https:// 开头`;
}
