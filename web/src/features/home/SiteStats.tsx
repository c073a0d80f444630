import { useQuery } from '@tanstack/react-query';
import { statsQuery } from '../stats/api';
import { useSettings } from '../settings/use-settings';

/** Registered users and documents, when the display settings show them. */
export function SiteStats() {
  const { display = {} } = useSettings();
  const wanted = !!display.show_register_user_count || !!display.show_document_count;
  const { data } = useQuery({ ...statsQuery(), enabled: wanted });
  if (!wanted || !data) return null;
  return (
    <dl className="app-home__stats">
      {display.show_document_count && (
        <div>
          <dt>文档</dt>
          <dd>{data.document_count ?? 0}</dd>
        </div>
      )}
      {display.show_register_user_count && (
        <div>
          <dt>注册用户</dt>
          <dd>{data.user_count ?? 0}</dd>
        </div>
      )}
    </dl>
  );
}
