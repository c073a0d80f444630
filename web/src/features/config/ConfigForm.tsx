// One config category as a form, generated from the category's rows
// (`GET /api/v1/config/list?category=…`). Saving sends only this category's rows; the write
// refreshes the public settings, so the site name and logo change without a rebuild. A move to
// another screen with changes not saved asks first (离开 / 留下继续编辑). A role
// that may list the settings but not update them sees them read-only, told why.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { UNUSED_CONFIG_KEYS } from '../../../../shared/config-rules';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Config } from '../../../../shared/types/config';
import { ApiError, unwrap } from '../../api/client';
import { FormFields } from '../../kit/admin-resource/FormFields';
import type { FormValues } from '../../kit/admin-resource/resource';
import { useFieldForm } from '../../kit/admin-resource/use-field-form';
import { validateForm } from '../../kit/admin-resource/validation';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { LeaveGuard } from '../../kit/routing/LeaveGuard';
import { retireFailure, toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { scrollMotion } from '../../kit/visibility/scroll-motion';
import { Button } from '../../ui/semi';
import { EmptyState } from '../../ui/states';
import { usePermissionCheck } from '../session/use-session';
import '../../kit/admin-resource/admin-resource.css';
import './config-form.css';
import { configCategoryQuery, saveConfig, testMailFailed, testMailNote } from './api';
import { configField, configValues, toWire } from './config-fields';

const UPDATE_CONFIG = grpcPermissionPath('ConfigAPI', 'UpdateConfig');

const FOCUSABLE =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function ConfigRowsForm({ category, rows }: { category: string; rows: Config[] }) {
  const fields = useMemo(() => rows.map((row) => configField(row, rows)), [rows]);
  const { values, errors, edited, change, check, reset, adopt } = useFieldForm<FormValues>(() => configValues(rows));
  // The stored rows the form started from. Read again (a refetch on focus or reconnect, another
  // admin's save), they update the fields the admin has not changed and keep those changed.
  const [base, setBase] = useState(rows);
  if (base !== rows) {
    setBase(rows);
    const before = configValues(base);
    const stored = configValues(rows);
    const untouched = rows.filter((row) => {
      const name = row.name ?? '';
      const was = base.find((old) => old.name === row.name);
      return !was || toWire(row, values[name]) === toWire(was, before[name]);
    });
    adopt(Object.fromEntries(untouched.map((row) => [row.name ?? '', stored[row.name ?? '']])));
  }
  const context = { mode: 'edit' as const, rows: [] };
  const mayUpdate = usePermissionCheck()(UPDATE_CONFIG);

  const wireRows = (input: FormValues) =>
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      category: row.category,
      value: toWire(row, input[row.name ?? '']),
    }));
  const save = useMutation({
    mutationFn: async (input: FormValues, mutation) => unwrap(await saveConfig(wireRows(input), mutation)),
    onSuccess: (_data, input) => {
      // Saved: the values sent are the form's new start, no longer changes to keep.
      reset(input);
      retireFailure('保存失败');
      const testMail = testMailNote(wireRows(input));
      toast.success('保存成功', testMail ? `配置已更新；${testMail}` : '配置已更新');
    },
    onError: (error, input) => {
      if (!(error instanceof ApiError && testMailFailed(error.failure, wireRows(input))))
        return toastFailure('保存失败', error);
      reset(input);
      toast.warning('配置已保存，但测试邮件发送失败', error.message);
    },
  });

  const form = useRef<HTMLFormElement>(null);

  /**
   * The first field with a message, in the order of the form, scrolled into view and focused:
   * a long category's wrong value may be far above the save button.
   */
  const showFirstProblem = () => {
    const problems = validateForm(fields, values, context);
    const first = fields.find((field) => problems[field.name]);
    const box =
      first &&
      [...(form.current?.querySelectorAll<HTMLElement>('[data-field]') ?? [])].find(
        (el) => el.dataset.field === first.name,
      );
    if (!first || !box) return;
    // (jsdom has no scrolling.)
    box.scrollIntoView?.({ block: 'center', behavior: scrollMotion() });
    const input = document.getElementById(`config-${category}-${first.name}`);
    // A field of several inputs (the VIP plans' table) marks the wrong ones: the first of those.
    const target = input?.matches('input, textarea, select, button, [tabindex]')
      ? input
      : (box.querySelector<HTMLElement>('[aria-invalid="true"]') ?? box.querySelector<HTMLElement>(FOCUSABLE));
    target?.focus({ preventScroll: true });
    if (target) showSideways(target, box);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Drawn at once, so that the inputs it marks wrong are there to be focused.
    if (flushSync(() => check(fields, context))) save.mutate(values);
    else showFirstProblem();
  };

  return (
    <form ref={form} className="app-resource-form app-config-form" noValidate onSubmit={submit} aria-label="配置表单">
      {!mayUpdate && (
        <p className="app-config-form__read-only" role="note">
          您只能查看这些配置：修改需要“更新系统配置”权限，请联系管理员。
        </p>
      )}
      {/* A disabled fieldset disables every input, switch and upload button inside it. */}
      <fieldset className="app-config-form__fields" disabled={!mayUpdate}>
        <FormFields
          idPrefix={`config-${category}`}
          fields={fields}
          values={values}
          errors={errors}
          context={context}
          onChange={change}
        />
      </fieldset>
      {/* A save that succeeds makes the values sent the form's start, its changes no longer unsaved. */}
      <LeaveGuard when={edited && !save.isPending} question="配置还没有保存，离开后修改的内容会丢失。确定离开吗？" />
      {mayUpdate && (
        <div className="app-form-actions">
          <Button type="primary" theme="solid" htmlType="submit" loading={save.isPending}>
            保存
          </Button>
          <Button disabled={save.isPending} onClick={() => reset(configValues(rows))}>
            还原
          </Button>
        </div>
      )}
    </form>
  );
}

/** The rows a form shows: not those kept for MOREDOC that nothing reads (stable, so react-query keeps the result). */
const shownRows = (rows: Config[]) => rows.filter((row) => !UNUSED_CONFIG_KEYS.has(`${row.category}.${row.name}`));

/**
 * Scrolls the boxes from `target` up to `outer` that scroll sideways (the VIP plans' table on a
 * phone, scrolled to its 删除 buttons) so that `target` shows: focused without scrolling (the
 * field's box has its own smooth scroll), it stayed out of sight beside them.
 */
function showSideways(target: HTMLElement, outer: HTMLElement): void {
  for (let box = target.parentElement; box && outer.contains(box); box = box.parentElement) {
    if (box.scrollWidth <= box.clientWidth) continue;
    const { left, right } = box.getBoundingClientRect();
    const shown = target.getBoundingClientRect();
    if (shown.left < left) box.scrollLeft -= left - shown.left;
    else if (shown.right > right) box.scrollLeft += Math.min(shown.right - right, shown.left - left);
  }
}

/** The form of config `category`, with its loading, error and empty states. */
export function ConfigForm({ category }: { category: string }) {
  const query = useQuery({ ...configCategoryQuery(category), select: shownRows });
  // One form for the screen's life: a refetch (a reconnect, a save) must not wipe unsaved input,
  // nor may one that failed (a reconnect while the network still drops) swap the form for the error.
  if (query.data && query.data.length > 0) return <ConfigRowsForm category={category} rows={query.data} />;
  return (
    <QueryStates
      query={query}
      loadingRows={8}
      failure="配置加载失败"
      isEmpty={(rows) => rows.length === 0}
      empty={<EmptyState title="该分类没有配置项" />}
    >
      {(rows) => <ConfigRowsForm category={category} rows={rows} />}
    </QueryStates>
  );
}
