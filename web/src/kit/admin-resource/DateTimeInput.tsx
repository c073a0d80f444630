// A date and time field of an admin form (custom field `render`): Semi's picker over an ISO 8601
// string, '' when empty; the time is China's (as the lists show it), whatever the browser's zone.
import { DEFAULT_TIME_ZONE } from '../../../../shared/format';
import { DatePicker } from '../../ui/semi-admin';
import type { CustomInputProps } from './resource';

export function DateTimeInput({
  id,
  value,
  onChange,
  invalid,
  placeholder,
  clearable = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  placeholder: string;
  /** Offers to empty the field (an empty value means something: 永久). */
  clearable?: boolean;
}) {
  return (
    <DatePicker
      type="dateTime"
      timeZone={DEFAULT_TIME_ZONE}
      value={value ? new Date(value) : undefined}
      onChange={(date) => onChange(date instanceof Date ? date.toISOString() : '')}
      placeholder={placeholder}
      showClear={clearable}
      validateStatus={invalid ? 'error' : 'default'}
      style={{ width: '100%' }}
      aria-labelledby={`${id}-label`}
    />
  );
}

/** The `render` of a custom form field holding a date and time. */
export const dateTimeRender =
  (placeholder: string, clearable = false) =>
  ({ id, value, onChange, invalid }: CustomInputProps) => (
    <DateTimeInput
      id={id}
      value={String(value ?? '')}
      onChange={onChange}
      invalid={invalid}
      placeholder={placeholder}
      clearable={clearable}
    />
  );
