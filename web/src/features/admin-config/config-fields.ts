// A config category's rows (contract: config-keys.md) as a described form: each row's
// `input_type` picks the input, `options` the choices, `col_num` the width; values travel
// as strings and are converted to and from what the inputs hold.
import type { Config } from '../../../../shared/types';
import type { FieldDef, FormValues, SelectOption } from '../admin-resource/resource';

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
  const base = {
    name: row.name ?? '',
    label: row.label || row.name || '',
    hint: row.placeholder || undefined,
    half: (row.col_num ?? 24) <= 12,
  };
  switch (row.input_type) {
    case 'textarea':
      return { ...base, kind: 'textarea' };
    case 'number':
      return { ...base, kind: 'number', integer: true };
    case 'switch':
      return { ...base, kind: 'switch' };
    case 'select':
      return { ...base, kind: 'select', options: parseOptions(row.options) };
    case 'select-multi':
      return { ...base, kind: 'select', multiple: true, options: parseOptions(row.options) };
    case 'password':
      return { ...base, kind: 'password', hint: base.hint ?? '显示为 ****** 时表示已设置，不修改则保持原值' };
    case 'image':
      return { ...base, kind: 'image', upload: 'config' };
    default:
      return { ...base, kind: 'text' };
  }
}
