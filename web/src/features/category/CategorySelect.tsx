import { categoryChoices, type CategoryNode } from './category-tree';
import '../../ui/form.css';

/** A plain select of the document categories, each indented under its parent; empty is 请选择分类. */
export function CategorySelect({
  id,
  label,
  tree,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  /** When no <label> names the select. */
  label?: string;
  tree: readonly CategoryNode[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  return (
    <select
      id={id}
      className="app-select"
      value={value ?? ''}
      onChange={(event) => onChange(Number(event.target.value) || undefined)}
      aria-label={label}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
    >
      <option value="">请选择分类</option>
      {categoryChoices(tree).map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
