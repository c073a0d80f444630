import { Link } from 'react-router-dom';
import { useCurrentRoute } from '../../kit/routing/current-route';
import { UnderConstruction } from '../../ui/states';

/** Admin screens of a later release: 建设中 inside the real admin layout. */
export function AdminUnderConstructionPage() {
  const route = useCurrentRoute();
  return (
    <div className="app-panel">
      <UnderConstruction title={route?.title ?? '管理页面'}>
        <Link to="/admin/dashboard">返回控制面板</Link>
      </UnderConstruction>
    </div>
  );
}
