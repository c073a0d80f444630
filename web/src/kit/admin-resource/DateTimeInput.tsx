// A date and time field of an admin form (custom field `render`): Semi's picker over an ISO 8601
// string, '' when empty; the time is China's (as the lists show it), whatever the browser's zone.
// Escape closes its open calendar, and only that (a second one closes the sheet holding the form).
import { useRef, useState, type ComponentRef, type KeyboardEvent } from 'react';
import { DEFAULT_TIME_ZONE } from '../../../../shared/format';
import { DatePicker } from '../../ui/semi-admin';
import { OPEN_POPUP_CLASS } from '../../ui/SideSheet';
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
  const picker = useRef<ComponentRef<typeof DatePicker>>(null);
  const [open, setOpen] = useState(false);
  // Semi's picker does not hear Escape: its calendar stayed open (and the sheet under it closed).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    picker.current?.close(); // closes without telling onOpenChange
    setOpen(false);
  };
  return (
    // Semi's picker takes no id: its wrapper holds the label's, for the label to focus it.
    <div id={id} className={open ? OPEN_POPUP_CLASS : undefined} onKeyDownCapture={onKeyDown}>
      <DatePicker
        ref={picker}
        onOpenChange={setOpen}
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
    </div>
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
