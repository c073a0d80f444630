import { Link } from 'react-router-dom';
import { useCurrentRoute } from '../../kit/routing/current-route';
import { UnderConstruction } from '../../ui/states';

/** Content screens of a later release (library, articles, VIP): a clear 建设中 notice. */
export function UnderConstructionPage() {
  const route = useCurrentRoute();
  return (
    <div className="app-container app-panel">
      <UnderConstruction title={route?.title ?? '页面'}>
        <Link to="/">返回首页</Link>
      </UnderConstruction>
    </div>
  );
}
