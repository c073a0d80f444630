import type { Database } from '../db';

// Read access to the `config` table, typed the way MOREDOC converts values by input_type
// (config-keys.md §1). Cached in memory; UpdateConfig invalidates the cache.

interface Entry { value: string; inputType: string }

const TRUE_VALUES = ['1', 't', 'T', 'TRUE', 'true', 'True'];

export class ConfigSnapshot {
  constructor(private readonly entries: Map<string, Entry>) {}

  raw(category: string, name: string): string {
    return this.entries.get(`${category}.${name}`)?.value ?? '';
  }
  str(category: string, name: string): string {
    return this.raw(category, name);
  }
  bool(category: string, name: string): boolean {
    return TRUE_VALUES.includes(this.raw(category, name).trim());
  }
  int(category: string, name: string): number {
    const value = this.raw(category, name).trim();
    return /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : 0;
  }
  list(category: string, name: string): string[] {
    return this.raw(category, name).split(',').map((s) => s.trim()).filter(Boolean);
  }
  /**
   * `system.domain` without its trailing slash: the site's address in what leaves the site
   * (sitemaps, password-reset mails, sign-in and payment callbacks); '' while it is not set.
   */
  siteOrigin(): string {
    return this.raw('system', 'domain').trim().replace(/\/+$/, '');
  }
}

export class ConfigStore {
  private cached: ConfigSnapshot | null = null;

  constructor(private readonly db: Database) {}

  async snapshot(): Promise<ConfigSnapshot> {
    if (this.cached) return this.cached;
    const rows = await this.db.selectFrom('config').select(['category', 'name', 'value', 'input_type']).execute();
    const entries = new Map<string, Entry>();
    for (const row of rows) entries.set(`${row.category}.${row.name}`, { value: row.value, inputType: row.input_type });
    this.cached = new ConfigSnapshot(entries);
    return this.cached;
  }

  invalidate(): void {
    this.cached = null;
  }
}
