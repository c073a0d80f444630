// The click of a label whose field is not a form control (Semi's Select and TreeSelect are a
// combobox <div>): the browser gives such a field no focus from its label by itself. A field
// that takes no id of its own (Semi's DatePicker) sits in a wrapper holding the id: its first
// input takes the focus.
import type { MouseEvent } from 'react';

export function focusLabelledField(event: MouseEvent<HTMLLabelElement>) {
  const label = event.currentTarget;
  if (label.control || !label.htmlFor) return;
  const field = document.getElementById(label.htmlFor);
  (field && field.tabIndex < 0 ? field.querySelector('input') : field)?.focus();
}
