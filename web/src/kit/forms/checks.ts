// The small checks every hand-written form repeats (the described admin forms have their own,
// in admin-resource/validation): messages per field, and the form's verdict.

export type Errors<K extends string> = Partial<Record<K, string>>;

export function checkRequired(value: string, message: string): string | undefined {
  return value.trim() ? undefined : message;
}

export function checkMaxLength(value: string, max: number, label: string): string | undefined {
  return [...value].length > max ? `${label}不能超过 ${max} 个字符` : undefined;
}

/** The errors that are set, or null when the form is valid. */
export function collectErrors<K extends string>(checks: Record<K, string | undefined>): Errors<K> | null {
  const errors: Errors<K> = {};
  let invalid = false;
  for (const key of Object.keys(checks) as K[]) {
    if (checks[key]) {
      errors[key] = checks[key];
      invalid = true;
    }
  }
  return invalid ? errors : null;
}
