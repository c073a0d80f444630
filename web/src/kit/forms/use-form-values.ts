// The text values of a hand-written form, one state object, and each field's onChange.
import { useState } from 'react';

/** `set(field)` is the field's onChange: it writes that one value. */
export function useFormValues<V extends Record<string, string>>(initial: V | (() => V)) {
  const [form, setForm] = useState(initial);
  const set = (field: keyof V) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  return { form, setForm, set };
}
