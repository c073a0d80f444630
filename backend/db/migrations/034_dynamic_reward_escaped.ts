import { sql, type Kysely } from 'kysely';

// A reward in a dynamic (registered 6, signed in 11: `…获得 N <credits>奖励`) holds the credits'
// name HTML-escaped since it is written so (user module, `dynamicReward`); the ones written
// before kept the admin's text raw, which MOREDOC's client ran as markup (031 escaped titles
// only). Their name is escaped once here, the rest of the content is the site's own text. A
// name already escaped (no raw `<>"'`, every `&` one of the five entities) is left as it is.

const REWARD_TYPES = [6, 11];

/** The escaping of platform/search/highlight.ts at the time of this migration (a migration never changes). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `获得 N ` then the credits' name, up to the `奖励` that ends the content. */
const REWARD = /^(.*?获得 \d+ )(.*)(奖励)$/s;

/** True when the text holds a character escaping would have turned into an entity. */
function isRaw(text: string): boolean {
  return /[<>"']|&(?!(?:amp|lt|gt|quot|#39);)/.test(text);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ id: number; content: string }>`SELECT id, content FROM dynamic
    WHERE type IN (${sql.join(REWARD_TYPES)})
      AND (content LIKE '%<%' OR content LIKE '%>%' OR content LIKE '%&%' OR content LIKE '%"%' OR content LIKE '%''%')
    ORDER BY id`.execute(db);
  for (const row of rows) {
    const reward = REWARD.exec(row.content);
    if (!reward || !isRaw(reward[2]!)) continue;
    const name = reward[2]!.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
    await sql`UPDATE dynamic SET content = ${reward[1]! + name + reward[3]!} WHERE id = ${row.id}`.execute(db);
  }
}
