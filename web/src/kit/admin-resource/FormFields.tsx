// A described form's fields with their labels, hints and validation messages.
import '../../ui/form.css';
import { FieldInput } from './FieldInput';
import { focusLabelledField } from './label-focus';
import type { FieldContext, FieldDef, FormValues } from './resource';
import { fieldReadOnly, fieldShown, type FieldErrors } from './validation';

export interface FormFieldsProps<Values extends FormValues, Row> {
  /** Prefix of the input ids, unique on the page. */
  idPrefix: string;
  fields: readonly FieldDef<Values, Row>[];
  values: Values;
  errors: FieldErrors;
  context: FieldContext<Row>;
  onChange: (name: Extract<keyof Values, string>, value: unknown) => void;
}

export function FormFields<Values extends FormValues, Row>(props: FormFieldsProps<Values, Row>) {
  const { idPrefix, fields, values, errors, context, onChange } = props;
  return (
    <div className="app-resource-form__grid">
      {fields
        .filter((field) => fieldShown(field, context.mode))
        .map((field) => {
          const id = `${idPrefix}-${field.name}`;
          const error = errors[field.name];
          const messageId = `${id}-message`;
          return (
            <div
              key={field.name}
              className={`app-field app-resource-form__field${field.half ? ' app-resource-form__field--half' : ''}`}
              data-field={field.name}
            >
              <label
                id={`${id}-label`}
                className={`app-field__label${field.required ? ' app-resource-form__label--required' : ''}`}
                htmlFor={id}
                onClick={focusLabelledField}
              >
                {field.label}
              </label>
              <FieldInput
                field={field}
                id={id}
                value={values[field.name]}
                onChange={(value) => onChange(field.name, value)}
                invalid={Boolean(error)}
                readOnly={fieldReadOnly(field, context.mode)}
                context={context}
                describedBy={error || field.hint ? messageId : undefined}
              />
              {error ? (
                <p id={messageId} className="app-field__error" role="alert">
                  {error}
                </p>
              ) : field.hint ? (
                <p id={messageId} className="app-field__hint">
                  {field.hint}
                </p>
              ) : null}
            </div>
          );
        })}
    </div>
  );
}
