import { useParams } from 'react-router-dom';
import { ReaderScreen } from '../../features/reader/ReaderScreen';

/** `/library/{category}/{id}`: the reader (the route guard checked both ids). */
export function DocumentPage() {
  const { category, id } = useParams();
  return <ReaderScreen key={id} id={Number(id)} categoryId={Number(category)} />;
}
