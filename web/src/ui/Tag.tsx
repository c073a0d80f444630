// Semi's Tag, named by its text. Semi's names itself "Tag: 启用" (an aria-label made of the English
// word and the text) whatever the locale, and a screen reader read "Tag:" in a table cell, a
// list or a heading. An `aria-label` given here is kept.
import type { ComponentProps } from 'react';
import SemiTag from '@douyinfe/semi-ui-19/lib/es/tag';

export type TagProps = ComponentProps<typeof SemiTag>;

export function Tag(props: TagProps) {
  // Semi's label comes before the props it is given: an own, undefined `aria-label` drops it.
  return <SemiTag aria-label={undefined} {...props} />;
}
