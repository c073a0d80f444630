import { useSearchParams } from 'react-router-dom';

/**
 * The address's query parameters, the first value of each, as the gateway reads them: the
 * screens whose state comes from shared/page-data.ts give it the same input on both sides.
 */
export function useQueryValues(): Record<string, string> {
  const [params] = useSearchParams();
  const query: Record<string, string> = {};
  for (const [name, value] of params) if (!(name in query)) query[name] = value;
  return query;
}
