// An article's review status as a coloured tag; the reject reason is its tooltip.
import { articleStatusOptions, optionLabel, ReviewStatus, type Option } from '../../../../shared/constants';
import type { Article } from '../../../../shared/types/article';
import { Tag } from '../../ui/semi-extra';

const STATUS_COLORS: Readonly<Record<number, 'orange' | 'green' | 'red'>> = { 0: 'orange', 1: 'green', 2: 'red' };

/** The same statuses as an author reads them: an approved article is simply published. */
export const authorArticleStatusOptions: readonly Option[] = articleStatusOptions.map((o) =>
  o.value === ReviewStatus.Approved ? { ...o, label: '已发布' } : o,
);

export function ArticleStatusTag({
  article,
  options = articleStatusOptions,
}: {
  article: Article;
  options?: readonly Option[];
}) {
  const status = article.status ?? ReviewStatus.Pending;
  return (
    <span title={article.reject_reason || undefined}>
      <Tag color={STATUS_COLORS[status] ?? 'grey'}>{optionLabel(options, status, '未知')}</Tag>
    </span>
  );
}
