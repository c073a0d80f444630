import { useParams } from 'react-router-dom';
import { LibraryScreen } from '../../features/library/LibraryScreen';

/** `/library` and `/library/{category}` (the route guard checked the id). */
export function LibraryPage() {
  const { category } = useParams();
  const categoryId = category ? Number(category) : undefined;
  return <LibraryScreen key={categoryId ?? 0} categoryId={categoryId} />;
}
