// The state of a form drawn by FormFields (the resource sheet, the config forms): its values
// and the Chinese messages under the inputs.
import { useState } from 'react';
import type { FieldContext, FieldDef, FormValues } from './resource';
import { validateForm, type FieldErrors } from './validation';

export function useFieldForm<Values extends FormValues>(initial: () => Values) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [edited, setEdited] = useState(false);
  return {
    values,
    errors,
    /** Whether a field was changed since the start or the last reset. */
    edited,
    /** FormFields' onChange: the new value, and that field's message goes. */
    change: (name: string, value: unknown) => {
      setEdited(true);
      setValues((current) => ({ ...current, [name]: value }));
      setErrors(({ [name]: _fixed, ...rest }) => rest);
    },
    /** Checks every field and shows the messages; true when the values may be sent. */
    check: <Row>(fields: readonly FieldDef<Values, Row>[], context: FieldContext<Row>) => {
      const problems = validateForm(fields, values, context);
      setErrors(problems);
      return Object.keys(problems).length === 0;
    },
    /** `next`'s values for its fields (e.g. stored values read again), the rest and `edited` kept. */
    adopt: (next: Partial<Values>) => setValues((current) => ({ ...current, ...next })),
    /** Back to `next`, without messages. */
    reset: (next: Values) => {
      setEdited(false);
      setValues(next);
      setErrors({});
    },
  };
}
