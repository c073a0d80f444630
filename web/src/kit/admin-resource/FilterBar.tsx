// The filters above a resource list: keyword boxes apply on Enter or 搜索, selects at once.
import { useState, type FormEvent } from 'react';
import { IconClear, IconSearch } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { Input } from '../../ui/semi-extra';
import { DatePicker, Select } from '../../ui/semi-admin';
import { DEFAULT_TIME_ZONE, formatDate } from '../../../../shared/format';
import { focusLabelledField } from './label-focus';
import type { FilterDef, FilterValue, FilterValues } from './resource';

// Select option values must be strings or numbers; booleans travel as 'true'/'false'.
const encode = (value: FilterValue): string | number | undefined =>
  typeof value === 'boolean' ? String(value) : value === '' ? undefined : value;
const decode = (value: unknown, options: FilterDef & { kind: 'select' }): FilterValue =>
  options.options.find((o) => encode(o.value) === value)?.value;

const DAY_MS = 24 * 3600_000;

/** The clear button's icon of a box or a select, named in Chinese (Semi's is named "clear"). */
const CLEAR_ICON = <IconClear aria-label="清除" />;

/** The start of the day `date` falls on in the site's time zone (China: UTC+8 all year). */
function dayStart(date: Date): number {
  return Date.parse(`${formatDate(date, 'yyyy-MM-dd', DEFAULT_TIME_ZONE)}T00:00:00+08:00`);
}

/**
 * The picked days as `[from, to)`: the first day's start and the start of the day after the
 * last, days of the site's time zone (the lists show their dates in it), whatever the browser's.
 */
function dayRange(value: unknown): [string, string] | undefined {
  if (!Array.isArray(value) || value.length !== 2 || !(value[0] instanceof Date) || !(value[1] instanceof Date))
    return undefined;
  return [new Date(dayStart(value[0])).toISOString(), new Date(dayStart(value[1]) + DAY_MS).toISOString()];
}

export function FilterBar({
  idPrefix,
  filters,
  applied,
  onApply,
}: {
  idPrefix: string;
  filters: readonly FilterDef[];
  applied: FilterValues;
  onApply: (values: FilterValues) => void;
}) {
  const [draft, setDraft] = useState<FilterValues>(applied);
  // Filters applied from elsewhere (back and forward through the list's addresses) replace the draft.
  const appliedKey = JSON.stringify(applied);
  const [shown, setShown] = useState(appliedKey);
  if (shown !== appliedKey) {
    setShown(appliedKey);
    setDraft(applied);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const reset = () => {
    setDraft({});
    onApply({});
  };
  return (
    <form className="app-resource-filters" role="search" aria-label="筛选" onSubmit={submit}>
      {filters.map((filter) => {
        const id = `${idPrefix}-filter-${filter.name}`;
        return (
          <div key={filter.name} className="app-resource-filters__item">
            <label id={`${id}-label`} htmlFor={id} className="app-resource-filters__label" onClick={focusLabelledField}>
              {filter.label}
            </label>
            {filter.kind === 'custom' ? (
              filter.render({
                id,
                value: draft[filter.name],
                onChange: (value) => {
                  const next = { ...draft, [filter.name]: value };
                  setDraft(next);
                  onApply(next);
                },
              })
            ) : filter.kind === 'date-range' ? (
              // Semi's picker takes no id: its wrapper holds the label's, for the label to focus it.
              <div id={id}>
                <DatePicker
                  type="dateRange"
                  timeZone={DEFAULT_TIME_ZONE}
                  aria-labelledby={`${id}-label`}
                  value={
                    draft[filter.from] && draft[filter.to]
                      ? [new Date(String(draft[filter.from])), new Date(Date.parse(String(draft[filter.to])) - DAY_MS)]
                      : undefined
                  }
                  onChange={(value) => {
                    const range = dayRange(value);
                    const next = { ...draft, [filter.from]: range?.[0], [filter.to]: range?.[1] };
                    setDraft(next);
                    onApply(next);
                  }}
                  placeholder={['开始日期', '结束日期']}
                  showClear
                  style={{ width: 260 }}
                  dropdownClassName="app-date-range-popup"
                />
              </div>
            ) : filter.kind === 'keyword' ? (
              <Input
                id={id}
                value={String(draft[filter.name] ?? '')}
                onChange={(value: string) => setDraft((d) => ({ ...d, [filter.name]: value }))}
                placeholder={filter.placeholder ?? `搜索${filter.label}`}
                showClear
                clearIcon={CLEAR_ICON}
                style={{ width: 220 }}
              />
            ) : (
              <Select
                id={id}
                aria-labelledby={`${id}-label`}
                value={encode(draft[filter.name])}
                optionList={filter.options.map((o) => ({ value: encode(o.value) as string | number, label: o.label }))}
                onChange={(value) => {
                  const next = { ...draft, [filter.name]: decode(value, filter) };
                  setDraft(next);
                  onApply(next);
                }}
                placeholder="全部"
                // Typed to narrow: a site's categories run to hundreds, too many to scroll through.
                filter
                showClear
                clearIcon={CLEAR_ICON}
                style={{ width: 160 }}
              />
            )}
          </div>
        );
      })}
      <div className="app-resource-filters__buttons">
        <Button htmlType="submit" type="primary" icon={<IconSearch />}>
          搜索
        </Button>
        <Button onClick={reset}>重置</Button>
      </div>
    </form>
  );
}
