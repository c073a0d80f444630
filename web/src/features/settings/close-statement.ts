// What a closed site (`security.is_close`) tells people: the admin's 闭站说明, one string per
// line, or a default when the admin wrote none. The 站点已关闭 screen and the login screen
// (where visitors land on a closed site) say the same.
import type { Settings } from '../../../../shared/types/config';
import { plainParagraphs } from '../../ui/plain-text';

const DEFAULT_STATEMENT = '网站维护中，暂时无法访问，请稍后再来。';

export function closeStatement(settings: Pick<Settings, 'security'>): string[] {
  const lines = plainParagraphs(settings.security?.close_statement);
  return lines.length > 0 ? lines : [DEFAULT_STATEMENT];
}
