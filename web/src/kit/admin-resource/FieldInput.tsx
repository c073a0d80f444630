// The input for one described field, by kind. Used by the resource forms and the config forms.
import { useEffect, useRef, type ComponentProps } from 'react';
import { Input, Switch } from '../../ui/semi-extra';
import { IconClear } from '../../ui/icons';
import { PasswordInput } from '../../ui/PasswordInput';
import { InputNumber, Select, TextArea, TreeSelect, type TreeNodeData } from '../../ui/semi-admin';
import { ImageUploadInput } from '../image-upload/ImageUploadInput';
import type { FieldContext, FieldDef, FormValues, TreeOption } from './resource';
import { colorHex } from './validation';

export interface FieldInputProps<Values extends FormValues, Row> {
  field: FieldDef<Values, Row>;
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  invalid: boolean;
  readOnly: boolean;
  context: FieldContext<Row>;
  /** Id of the element describing the field (its message or hint). */
  describedBy?: string;
}

function toTreeData(options: readonly TreeOption[]): TreeNodeData[] {
  return options.map((o) => ({
    key: String(o.value),
    value: o.value,
    label: o.label,
    disabled: o.disabled,
    ...(o.children ? { children: toTreeData(o.children) } : {}),
  }));
}

/** Where the picker starts while the field is empty (Semi's primary blue). */
const EMPTY_PICKER_COLOR = '#1677ff';

const asText = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export function FieldInput<Values extends FormValues, Row>(props: FieldInputProps<Values, Row>) {
  const { field, id, value, onChange, invalid, readOnly, context, describedBy } = props;
  const status = invalid ? 'error' : 'default';
  const aria = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  switch (field.kind) {
    case 'text':
    case 'password': {
      const Box = field.kind === 'password' ? PasswordInput : Input;
      return (
        <Box
          id={id}
          value={asText(value)}
          onChange={(next: string) => onChange(next)}
          autoComplete={field.kind === 'password' ? 'new-password' : 'off'}
          placeholder={field.placeholder}
          disabled={readOnly}
          validateStatus={status}
          {...aria}
        />
      );
    }
    case 'textarea':
      return (
        <TextArea
          id={id}
          value={asText(value)}
          onChange={(next: string) => onChange(next)}
          placeholder={field.placeholder}
          disabled={readOnly}
          autosize={{ minRows: 3, maxRows: 10 }}
          validateStatus={status}
          {...aria}
        />
      );
    case 'number':
      // min/max are checked with a message on submit rather than clamped silently by the input.
      return (
        <InputNumber
          id={id}
          value={typeof value === 'number' || (typeof value === 'string' && value !== '') ? value : undefined}
          // What is not a number yet (a lone minus sign, typed before the digits) stays as typed.
          onChange={(next: number | string) =>
            onChange(next === '' || next === undefined ? undefined : Number.isNaN(Number(next)) ? next : Number(next))
          }
          precision={field.integer ? 0 : undefined}
          placeholder={field.placeholder}
          disabled={readOnly}
          validateStatus={status}
          style={{ width: '100%' }}
          {...aria}
        />
      );
    case 'switch':
      return (
        <Switch
          id={id}
          checked={value === true}
          onChange={(checked: boolean) => onChange(checked)}
          disabled={readOnly}
          aria-labelledby={`${id}-label`}
        />
      );
    case 'color': {
      // The swatch shows the colour typed, or an empty (crossed) box while there is none: the
      // browser's picker cannot be empty and would show black. The picker lies over the swatch.
      const hex = colorHex(asText(value));
      return (
        <div className="app-color-input">
          <Input
            id={id}
            value={asText(value)}
            onChange={(next: string) => onChange(next)}
            placeholder={field.placeholder ?? '例如 #1677ff'}
            disabled={readOnly}
            validateStatus={status}
            {...aria}
          />
          <span
            className={`app-color-input__swatch${hex ? '' : ' app-color-input__swatch--empty'}`}
            style={hex ? { background: hex } : undefined}
            data-color={hex ?? ''}
            title={hex ?? (asText(value).trim() ? '无法识别的颜色' : '未设置')}
          >
            <input
              type="color"
              className="app-color-input__picker"
              aria-label={`选择${field.label}`}
              value={hex ?? EMPTY_PICKER_COLOR}
              disabled={readOnly}
              onChange={(event) => onChange(event.target.value)}
            />
          </span>
        </div>
      );
    }
    case 'select': {
      const options = typeof field.options === 'function' ? field.options(context) : field.options;
      return (
        <Select
          id={id}
          value={(value ?? undefined) as string | number | (string | number)[] | undefined}
          onChange={(next) => onChange(next)}
          optionList={options.map((o) => ({ value: o.value, label: o.label }))}
          multiple={field.multiple}
          filter
          showClear={!field.required}
          clearIcon={<IconClear aria-label="清除" />}
          placeholder={field.placeholder ?? `请选择${field.label}`}
          disabled={readOnly}
          validateStatus={status}
          style={{ width: '100%' }}
          aria-labelledby={`${id}-label`}
          {...aria}
        />
      );
    }
    case 'tree-select':
      return (
        <TreeSelectInput
          id={id}
          value={value as number | undefined}
          onChange={(next) => onChange(next)}
          treeData={toTreeData(field.options(context))}
          placeholder={field.placeholder ?? `请选择${field.label}`}
          disabled={readOnly}
          validateStatus={status}
          {...aria}
        />
      );
    case 'image':
      return (
        <ImageUploadInput
          id={id}
          label={field.label}
          target={field.upload}
          value={asText(value)}
          onChange={(path) => onChange(path)}
          disabled={readOnly}
        />
      );
    case 'custom':
      return <>{field.render({ id, value, onChange, invalid, describedBy })}</>;
  }
}

// Semi's TreeSelect takes no `id`: its label's `htmlFor` pointed at nothing. The box it opens with
// (its combobox) gets the id, and it and the box typed in to narrow the tree (named
// "Filter TreeSelect item" by Semi) are named by the label.
function TreeSelectInput({ id, ...props }: ComponentProps<typeof TreeSelect> & { id: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector('[role="combobox"]')?.setAttribute('id', id);
  }, [id]);
  const labelledBy = `${id}-label`;
  return (
    <div ref={box}>
      <TreeSelect
        {...props}
        expandAll
        filterTreeNode
        style={{ width: '100%' }}
        dropdownStyle={{ maxHeight: 360, overflow: 'auto' }}
        aria-labelledby={labelledBy}
        searchRender={(search: ComponentProps<typeof Input>) => <Input {...search} aria-labelledby={labelledBy} />}
      />
    </div>
  );
}
