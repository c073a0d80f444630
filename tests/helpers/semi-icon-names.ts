// The type names of Semi's icons ("search", "arrow_up", "chevron_down"…), which Semi's icon
// component makes its aria-label: the English words an icon would add to an accessible name.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// vitest runs from the repository root (happy-dom gives import.meta.url no file scheme)
const ICONS = join(process.cwd(), 'node_modules/@douyinfe/semi-icons/lib/es/icons');

let names: ReadonlySet<string> | undefined;

/** Every icon type of the installed @douyinfe/semi-icons, read from its modules (`convertIcon(Svg, 'search')`). */
export function semiIconNames(): ReadonlySet<string> {
  names ??= new Set(
    readdirSync(ICONS)
      .filter((file) => file.endsWith('.js'))
      .map((file) => /convertIcon\(\w+, '([^']+)'\)/.exec(readFileSync(join(ICONS, file), 'utf8'))?.[1])
      .filter((name): name is string => name !== undefined),
  );
  return names;
}

/**
 * The words of `name` (an accessible name or an aria-label) that are icon types: whole words
 * between spaces, as Semi's label puts them beside a text ("search 搜索"), so that a file name
 * (报告.pdf), a user name or an English product name (PDF, Word) is none.
 */
export function iconWordsIn(name: string): string[] {
  const icons = semiIconNames();
  return name.split(/\s+/).filter((word) => icons.has(word));
}
