import type { Database } from '../../db';
import { now } from '../../db/schema';
import { settingsChanged } from '../../platform/config-store';

// The 行业 (industries) a new site starts with. MOREDOC keeps them in LanguageAPI (its screens
// once said 语言) and seeds 134 languages, which fit neither the 行业 our screens show nor a
// Chinese document site; a new site gets industries instead. Added once, to an empty table:
// an existing site keeps its list, and admins' changes stay. [code, name]
const INDUSTRIES: readonly [code: string, name: string][] = [
  ['education', '教育培训'],
  ['internet', 'IT 互联网'],
  ['finance', '金融财经'],
  ['medical', '医疗卫生'],
  ['law', '法律法规'],
  ['construction', '建筑工程'],
  ['manufacturing', '机械制造'],
  ['energy', '能源化工'],
  ['agriculture', '农林牧渔'],
  ['logistics', '交通物流'],
  ['realestate', '房地产'],
  ['media', '文化传媒'],
  ['government', '党政公文'],
  ['management', '企业管理'],
  ['marketing', '市场营销'],
  ['hr', '人力资源'],
];

export async function seedLanguages(db: Database): Promise<void> {
  if (await db.selectFrom('language').select('id').limit(1).executeTakeFirst()) return;
  const ts = now();
  await db
    .insertInto('language')
    .values(
      INDUSTRIES.map(([code, language]) => ({
        code,
        language,
        enable: 1,
        sort: 0,
        created_at: ts,
        updated_at: ts,
      })),
    )
    .execute();
  // Processes already running cache the settings' languages under this counter.
  await settingsChanged(db);
}
