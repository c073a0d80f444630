// Picks users by searching names (ListUser `wd`); chosen users keep their names while the
// search moves on, and users given by id alone (a list's filter read from its address) are
// named by asking for them.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldDef, FormMode } from '../../kit/admin-resource/resource';
import { Select } from '../../ui/semi-admin';
import { userSearchQuery, usersByIdQuery } from './api';

interface Choice {
  value: number;
  label: string;
}

export function UserPicker({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  value: number[];
  onChange: (ids: number[]) => void;
  invalid: boolean;
  describedBy?: string;
}) {
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<Choice[]>([]);
  const found = useQuery({ ...userSearchQuery(term), placeholderData: keepPreviousData });
  const results: Choice[] = (found.data ?? []).map((u) => ({ value: u.id ?? 0, label: u.username ?? '' }));
  const known = [...chosen.filter((c) => value.includes(c.value)), ...results];
  const unnamed = value.filter((uid) => !known.some((k) => k.value === uid));
  const named = useQuery(usersByIdQuery(unnamed));
  const asked: Choice[] = (named.data ?? [])
    .filter((u) => u.id && unnamed.includes(u.id))
    .map((u) => ({ value: u.id ?? 0, label: u.username ?? '' }));
  const options = [
    ...asked,
    ...chosen.filter((c) => value.includes(c.value) && !results.some((r) => r.value === c.value)),
    ...results,
  ];
  return (
    <Select
      id={id}
      aria-labelledby={`${id}-label`}
      multiple
      filter
      remote
      onSearch={(text: string) => setTerm(text.trim())}
      loading={found.isFetching}
      value={value}
      onChange={(next) => {
        const ids = Array.isArray(next) ? next.map(Number) : [];
        setChosen(ids.map((uid) => options.find((o) => o.value === uid) ?? { value: uid, label: `#${uid}` }));
        onChange(ids);
      }}
      optionList={options}
      emptyContent="没有找到用户"
      placeholder="输入用户名搜索"
      validateStatus={invalid ? 'error' : 'default'}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      style={{ width: '100%' }}
    />
  );
}

/** The 用户 field of an admin form that acts on several users at once (VIP grants, punishments). */
export const usersField = <V extends { users: number[] }>(hint: string, modes?: readonly FormMode[]): FieldDef<V> => ({
  name: 'users' as Extract<keyof V, string>,
  label: '用户',
  kind: 'custom',
  required: true,
  emptyMessage: '请选择用户',
  hint,
  ...(modes ? { modes } : {}),
  render: ({ id, value, onChange, invalid, describedBy }) => (
    <UserPicker
      id={id}
      value={(value as number[]) ?? []}
      onChange={onChange}
      invalid={invalid}
      describedBy={describedBy}
    />
  ),
});
