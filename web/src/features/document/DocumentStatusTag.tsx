// A document's status (docs/product.md §4's eight) as a coloured tag with its Chinese label.
import { documentStatusOptions, optionLabel } from '../../../../shared/constants';
import { Tag } from '../../ui/semi-extra';

type TagColor = 'grey' | 'blue' | 'green' | 'red' | 'orange' | 'light-blue';

const COLORS: readonly TagColor[] = ['grey', 'blue', 'green', 'red', 'grey', 'light-blue', 'orange', 'red'];

export function DocumentStatusTag({ status }: { status: number | undefined }) {
  const value = status ?? 0;
  return <Tag color={COLORS[value] ?? 'grey'}>{optionLabel(documentStatusOptions, value, '未知')}</Tag>;
}
