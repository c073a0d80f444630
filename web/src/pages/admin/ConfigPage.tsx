// /admin/config/<category>: the form of one config category (and, for `sms`, the test message).
import { ConfigForm } from '../../features/config/ConfigForm';
import { TestSmsForm } from '../../features/sms/TestSmsForm';
import { useCurrentRoute } from '../../kit/routing/current-route';

export function ConfigPage() {
  const route = useCurrentRoute();
  const category = route?.path.split('/').pop() ?? '';
  return (
    <div className="app-config" data-config-category={category}>
      <h1 className="app-admin-page__title">{route?.title ?? '系统设置'}</h1>
      <section className="app-panel">
        <ConfigForm key={category} category={category} />
      </section>
      {category === 'sms' && <TestSmsForm />}
    </div>
  );
}
