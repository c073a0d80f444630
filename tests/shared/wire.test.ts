import { readdirSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Empty, message, type AnyMessage, type FieldSpec, type Wire } from '../../shared/wire';

// The message descriptions of shared/messages/ are the one spelling of the API: the backend
// encodes and decodes them, the SPA's types are their Wire<…> (shared/types/).

const Tag = message('Tag', { id: 'int64', name: 'string' });
const Sample = message('Sample', {
  id: 'int64',
  score: 'float',
  title: 'string',
  enable: 'bool',
  created_at: 'time',
  ids: 'int64[]',
  kind: { enum: { NONE: 0, ONE: 1 } },
  tag: Tag,
  tags: [Tag],
});

describe('Wire<typeof X>', () => {
  it('is the JSON of a message: snake_case keys, every field optional, times as strings, nested messages as their JSON', () => {
    expectTypeOf<Wire<typeof Sample>>().toEqualTypeOf<{
      id?: number;
      score?: number;
      title?: string;
      enable?: boolean;
      created_at?: string;
      ids?: number[];
      kind?: number;
      tag?: { id?: number; name?: string };
      tags?: { id?: number; name?: string }[];
    }>();
    expectTypeOf<Wire<typeof Empty>>().toEqualTypeOf<{}>(); // eslint-disable-line @typescript-eslint/no-empty-object-type
  });

  it('message() keeps the name and the fields in declaration order', () => {
    expect(Sample.name).toBe('Sample');
    expect(Object.keys(Sample.fields)).toEqual([
      'id',
      'score',
      'title',
      'enable',
      'created_at',
      'ids',
      'kind',
      'tag',
      'tags',
    ]);
    expect(Empty).toEqual({ name: 'Empty', fields: {} });
  });
});

const SCALARS = new Set(['int32', 'int64', 'float', 'string', 'bool', 'time']);
const isMessage = (value: unknown): value is AnyMessage =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyMessage).name === 'string' &&
  typeof (value as AnyMessage).fields === 'object';

/** What is wrong with a field's description, for the codec of backend/wire/message.ts. */
function specProblem(spec: FieldSpec): string | null {
  // Repeated times have no encoding (backend/wire/message.ts writes numbers, strings and booleans in arrays).
  if (typeof spec === 'string')
    return SCALARS.has(spec.replace(/\[\]$/, '')) && !spec.startsWith('time[') ? null : `unknown type ${spec}`;
  if (Array.isArray(spec)) return spec.length === 1 && isMessage(spec[0]) ? null : 'a repeated field lists one message';
  if ('enum' in spec)
    return Object.values(spec.enum).includes(0) ? null : 'an enum has a zero value (what an omitted field decodes to)';
  return isMessage(spec) ? null : 'not a field description';
}

describe('shared/messages', async () => {
  const files = readdirSync(new URL('../../shared/messages/', import.meta.url)).filter((name) => name.endsWith('.ts'));
  const modules = await Promise.all(
    files.map(async (file) => [file, await import(`../../shared/messages/${file}`)] as const),
  );
  const messages = modules.flatMap(([file, exports]) =>
    Object.entries(exports as Record<string, unknown>).map(([name, value]) => {
      // common.ts: the generic requests each service declares under its own name.
      const described = typeof value === 'function' ? (value as (name: string) => unknown)(name) : value;
      return { at: `${file}: ${name}`, described };
    }),
  );

  it('exports one message description per module of the backend', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(messages.filter((m) => !isMessage(m.described)).map((m) => m.at)).toEqual([]);
  });

  it('describes every field with snake_case name and a type the codec knows', () => {
    const problems = messages.flatMap(({ at, described }) =>
      Object.entries((described as AnyMessage).fields).flatMap(([field, spec]) => {
        const problem = /^[a-z][a-z0-9_]*$/.test(field) ? specProblem(spec as FieldSpec) : 'not snake_case';
        return problem ? [`${at}.${field}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});
