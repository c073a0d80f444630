// The click of a label whose field is not a form control (Semi's Select and TreeSelect are a
// combobox <div>): the browser gives such a field no focus from its label by itself.
import type { MouseEvent } from 'react';

export function focusLabelledField(event: MouseEvent<HTMLLabelElement>) {
  const label = event.currentTarget;
  if (!label.control && label.htmlFor) document.getElementById(label.htmlFor)?.focus();
}
