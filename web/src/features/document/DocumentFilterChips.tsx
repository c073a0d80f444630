import { documentTypeOptions } from '../../../../shared/constants';
import { ChoiceChips } from '../../kit/filters/ChoiceChips';
import { useSettings } from '../settings/use-settings';

/** The choices the document lists filter by; absent is 全部. */
export interface DocumentFilters {
  ext?: string;
  language?: string;
}

/**
 * The 格式 and 行业 rows of a document list's filters (行业 only when the site has
 * industries); `hrefFor` is the list's address with one of them changed.
 */
export function DocumentFilterChips({
  current,
  hrefFor,
}: {
  current: DocumentFilters;
  hrefFor: (change: DocumentFilters) => string;
}) {
  const languages = useSettings().language ?? [];
  return (
    <>
      <ChoiceChips
        label="格式"
        choices={[{ value: '', label: '全部' }, ...documentTypeOptions]}
        current={current.ext ?? ''}
        hrefFor={(ext) => hrefFor({ ext: ext || undefined })}
      />
      {languages.length > 0 && (
        <ChoiceChips
          label="行业"
          choices={[
            { value: '', label: '全部' },
            ...languages.map((l) => ({ value: l.code ?? '', label: l.language ?? l.code ?? '' })),
          ]}
          current={current.language ?? ''}
          hrefFor={(language) => hrefFor({ language: language || undefined })}
        />
      )}
    </>
  );
}
