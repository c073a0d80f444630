// A config category's rows (docs/moredoc.md §10) as a described form: each row's
// `input_type` picks the input, `options` the choices, `col_num` the width; values travel
// as strings and are converted to and from what the inputs hold.
import type { Config } from '../../../../shared/types/config';
import type { FieldDef, FormValues, SelectOption } from '../../kit/admin-resource/resource';
import { imageUploadTarget } from '../upload/api';
import { CONFIG_SET_RULES, configRule, configValueProblem } from '../../../../shared/config-rules';
import { createElement } from 'react';
import { RichTextEditor } from '../../kit/rich-text/RichTextEditor';
import { VipPlanEditor, vipPlansError } from '../vip/VipPlanEditor';

const configImages = imageUploadTarget('config');

type Check = (value: unknown, values: FormValues) => string | undefined;

/**
 * The rules of keys read together (shared/config-rules.ts) shown under `key`, over the values
 * of the form (the rows of one category; a key of another category reads as empty).
 */
function togetherCheck(key: string, rows: readonly Config[]): Check | undefined {
  const rules = CONFIG_SET_RULES.filter((rule) => rule.key === key);
  if (!rules.length) return undefined;
  const rowOf = (k: string) => rows.find((r) => `${r.category ?? ''}.${r.name ?? ''}` === k);
  const label = (k: string) => rowOf(k)?.label || k.split('.')[1] || k;
  return (_value, values) => {
    const lookup = (k: string) => {
      const row = rowOf(k);
      return row ? toWire(row, values[row.name ?? '']) : '';
    };
    for (const rule of rules) {
      const problem = rule.check(lookup, label);
      if (problem) return `${label(key)}${problem}`;
    }
    return undefined;
  };
}

/**
 * The key's rules (shared/config-rules.ts, which the backend applies too) as the field's
 * check: the message under the input is the server's, after the field's label.
 */
function keyCheck(row: Config, key: string, label: string, rows: readonly Config[]): Check | undefined {
  // The plan table says which plan is wrong, where the server only says the format.
  if (key === 'vip.plans') return (value) => vipPlansError(String(value ?? ''));
  const rule = configRule(key, row.input_type);
  const together = togetherCheck(key, rows);
  if (row.input_type !== 'number' && !rule.check && !together) return undefined;
  return (value, values) => {
    const problem = configValueProblem(key, row.input_type, toWire(row, value));
    return problem ? `${label}${problem}` : together?.(value, values);
  };
}

/** The help under the plan table. */
export const VIP_PLANS_HINT =
  '每行一个套餐，会员页按表中顺序展示。代码是套餐的标识（1 到 32 位字母、数字、下划线或短横线，不能重复）；价格 0.01 元起，最多两位小数；说明可留空；打开“推荐”的套餐在会员页突出显示。';

/** `value:label` per line; a bare line is its own label (document extensions). */
export function parseOptions(options: string | undefined): SelectOption[] {
  return (options ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { value: line, label: line }
        : { value: line.slice(0, colon), label: line.slice(colon + 1) || line.slice(0, colon) };
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
      return value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
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

/** The field describing one row of `rows` (its category's, read by the rules of several keys). */
export function configField(row: Config, rows: readonly Config[] = [row]): FieldDef<FormValues> {
  const key = `${row.category ?? ''}.${row.name ?? ''}`;
  const label = row.label || row.name || '';
  const validate = keyCheck(row, key, label, rows);
  const base = {
    name: row.name ?? '',
    label,
    hint: row.placeholder || undefined,
    half: (row.col_num ?? 24) <= 12,
    ...(configRule(key, row.input_type).required ? { required: true } : {}),
    ...(validate ? { validate } : {}),
  };
  // The plans are edited as a table of plans; the value stays the config's text (whose
  // one-plan-per-line format the row's placeholder describes: not what the table shows).
  if (key === 'vip.plans') {
    return {
      ...base,
      hint: VIP_PLANS_HINT,
      kind: 'custom',
      render: ({ id, value, onChange, invalid }) =>
        createElement(VipPlanEditor, { id, value: String(value ?? ''), onChange, invalid }),
    };
  }
  // The benefits are rich text, written with the articles' editor; the server sanitises them.
  if (key === 'vip.benefits') {
    return {
      ...base,
      kind: 'custom',
      render: ({ id, value, onChange, invalid }) =>
        createElement(RichTextEditor, {
          id,
          value: String(value ?? ''),
          documentKey: key,
          onChange,
          upload: configImages,
          invalid,
          labelledBy: `${id}-label`,
        }),
    };
  }
  switch (row.input_type) {
    case 'textarea':
      return { ...base, kind: 'textarea' };
    case 'number':
      // The backend stores integers only, never an empty value; the bounds are the key's rule.
      return { ...base, kind: 'number', integer: true, required: true };
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
