// /admin/config/<category>: the form of one config category (and, for `sms`, the test message;
// for `security`, the review settings of the role new members join).
import { ConfigForm } from '../../features/config/ConfigForm';
import { ReviewDefaults } from '../../features/group/ReviewDefaults';
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
      {category === 'security' && <ReviewDefaults />}
    </div>
  );
}
