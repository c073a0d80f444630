// `vip.plans` as a table of plans (code, name, days, price, description, recommended) instead
// of its `code|title|days|price|description|1` text: the admin edits rows, the config keeps
// the text (shared/vip.ts turns one into the other).
import { useEffect, useRef, useState } from 'react';
import {
  formatVipPlans,
  vipPlanDrafts,
  vipPlanFieldProblems,
  vipPlanProblems,
  type VipPlanDraft,
  type VipPlanField,
} from '../../../../shared/vip';
import { IconDelete, IconPlus } from '../../ui/icons';
import { Button } from '../../ui/semi';
import { Input, Switch } from '../../ui/semi-extra';
import './vip.css';

/** The first problem of the plans, per row, in Chinese (the config form's check). */
export function vipPlansError(value: string): string | undefined {
  const drafts = vipPlanDrafts(value);
  const seen = new Set<string>();
  for (const [index, draft] of drafts.entries()) {
    const [problem] = vipPlanProblems(draft);
    if (problem) return `第 ${index + 1} 个套餐：${problem}`;
    if (seen.has(draft.code)) return `第 ${index + 1} 个套餐：套餐代码“${draft.code}”重复`;
    seen.add(draft.code);
  }
  return undefined;
}

/**
 * Per plan, the fields the check finds wrong (a code already used above included): only those
 * inputs are marked, so that the admin sees which cell to fix, and 保存 focuses the first.
 */
function wrongFields(plans: readonly VipPlanDraft[]): Set<VipPlanField>[] {
  const seen = new Set<string>();
  return plans.map((plan) => {
    const wrong = new Set(vipPlanFieldProblems(plan).map((problem) => problem.field));
    if (seen.has(plan.code)) wrong.add('code');
    seen.add(plan.code);
    return wrong;
  });
}

const EMPTY: VipPlanDraft = { code: '', title: '', days: '30', price: '', description: '', recommended: false };

/** What the plan text may not hold: the separator and line breaks never reach it. */
const clean = (text: string) => text.replace(/[|\r\n]/g, '');

const COLUMNS: readonly {
  key: Exclude<keyof VipPlanDraft, 'recommended'>;
  label: string;
  width: number;
  inputMode?: 'numeric' | 'decimal';
}[] = [
  { key: 'code', label: '代码', width: 110 },
  { key: 'title', label: '名称', width: 140 },
  { key: 'days', label: '天数', width: 80, inputMode: 'numeric' },
  { key: 'price', label: '价格（元）', width: 100, inputMode: 'decimal' },
  { key: 'description', label: '说明', width: 160 },
];

export function VipPlanEditor({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
}) {
  // The rows live here, so that a half-typed row keeps its place; the config gets their text.
  const [plans, setPlans] = useState<VipPlanDraft[]>(() => vipPlanDrafts(value));
  const update = (next: VipPlanDraft[]) => {
    setPlans(next);
    onChange(formatVipPlans(next));
  };
  const edit = (index: number, patch: Partial<VipPlanDraft>) =>
    update(plans.map((plan, i) => (i === index ? { ...plan, ...patch } : plan)));
  const wrong = invalid ? wrongFields(plans) : [];
  // Where the keyboard goes once the rows are drawn: a row added, to its 代码 (it stayed on 添加套餐,
  // the row to fill behind it); the last row deleted, to the 删除 of the row now last, or to
  // 添加套餐 when none is left (it fell to the page with the button).
  const root = useRef<HTMLDivElement>(null);
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const selector = focusNext.current;
    focusNext.current = null;
    if (selector) root.current?.querySelector<HTMLElement>(selector)?.focus();
  }, [plans]);
  const add = () => {
    focusNext.current = `input[aria-label="第 ${plans.length + 1} 个套餐的代码"]`;
    update([...plans, { ...EMPTY }]);
  };
  const remove = (index: number) => {
    if (index === plans.length - 1)
      focusNext.current =
        index > 0 ? `button[aria-label="删除第 ${index} 个套餐"]` : '.app-vip-plan-table__actions button';
    update(plans.filter((_, i) => i !== index));
  };
  return (
    <div ref={root} id={id} role="group" aria-labelledby={`${id}-label`} data-invalid={invalid}>
      <div className="app-vip-plan-table__wrap">
        <table className="app-vip-plan-table">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column.key} scope="col" style={{ minWidth: column.width }}>
                  {column.label}
                </th>
              ))}
              <th scope="col">推荐</th>
              <th scope="col">
                <span className="app-visually-hidden">操作</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {plans.map((plan, index) => (
              <tr key={index} data-plan-row={index + 1}>
                {COLUMNS.map((column) => (
                  <td key={column.key}>
                    <Input
                      aria-label={`第 ${index + 1} 个套餐的${column.label}`}
                      value={String(plan[column.key])}
                      inputMode={column.inputMode}
                      onChange={(text: string) => edit(index, { [column.key]: clean(text) })}
                      validateStatus={wrong[index]?.has(column.key) ? 'error' : 'default'}
                    />
                  </td>
                ))}
                <td>
                  <Switch
                    aria-label={`第 ${index + 1} 个套餐推荐`}
                    checked={plan.recommended}
                    onChange={(checked: boolean) => edit(index, { recommended: checked })}
                  />
                </td>
                <td>
                  <Button
                    theme="borderless"
                    type="danger"
                    icon={<IconDelete />}
                    aria-label={`删除第 ${index + 1} 个套餐`}
                    onClick={() => remove(index)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="app-vip-plan-table__actions">
        <Button icon={<IconPlus />} onClick={add}>
          添加套餐
        </Button>
      </div>
    </div>
  );
}
