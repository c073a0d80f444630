// Semi's Select with the box typed in to narrow its list (`filter`) named as the Select is (its
// aria-labelledby): Semi leaves that <input> unnamed, and it is what holds the
// keyboard once the list opens (and, in a multiple Select, on Tab already), so a screen reader
// said only "edit text" there, not which filter or field was being typed in. Its error (or hint)
// and its aria-invalid go with the name.
import type { ComponentProps } from 'react';
import SemiSelect from '@douyinfe/semi-ui-19/lib/es/select';

export type SelectProps = ComponentProps<typeof SemiSelect>;

export function Select({ inputProps, ...props }: SelectProps) {
  return (
    <SemiSelect
      {...props}
      inputProps={{
        'aria-labelledby': props['aria-labelledby'],
        'aria-describedby': props['aria-describedby'],
        'aria-invalid': props['aria-invalid'],
        ...inputProps,
      }}
    />
  );
}
