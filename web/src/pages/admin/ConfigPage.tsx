// /admin/config/<category>: one form per config category, generated from the category's rows
// (`GET /api/v1/config/list?category=…`). Saving sends only this category's rows; the public
// settings are refreshed, so the site name and logo change without a rebuild.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, type FormEvent } from 'react';
import type { Config } from '../../../../shared/types/config';
import { configApi, configCategoryQuery, configKeys } from '../../api/config';
import { settingsQuery } from '../../api/settings';
import { configField, configValues, toWire } from '../../features/admin-config/config-fields';
import { FormFields } from '../../kit/admin-resource/FormFields';
import type { FormValues } from '../../kit/admin-resource/resource';
import { useFieldForm } from '../../kit/admin-resource/use-field-form';
import { succeedOrThrow } from '../../kit/admin-resource/use-resource';
import { useCurrentRoute } from '../../kit/routing/current-route';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { toast } from '../../kit/toasts/toast-store';
import { Button } from '../../ui/semi';
import { EmptyState } from '../../ui/states';
import '../../kit/admin-resource/admin-resource.css';

function ConfigForm({ category, rows }: { category: string; rows: Config[] }) {
  const queryClient = useQueryClient();
  const fields = useMemo(() => rows.map(configField), [rows]);
  const { values, errors, change, check, reset } = useFieldForm<FormValues>(() => configValues(rows));
  const context = { mode: 'edit' as const, rows: [] };

  const save = useMutation({
    mutationFn: (input: FormValues) =>
      succeedOrThrow(
        configApi.update(rows.map((row) => ({ id: row.id, name: row.name, category: row.category, value: toWire(row, input[row.name ?? '']) }))),
      ),
    onSuccess: async () => {
      toast.success('保存成功', '配置已更新');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: configKeys.category(category) }),
        queryClient.invalidateQueries({ queryKey: settingsQuery().queryKey }),
      ]);
    },
    onError: (error) => toastFailure('保存失败', error),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check(fields, context)) save.mutate(values);
  };

  return (
    <form className="app-resource-form app-config-form" noValidate onSubmit={submit} aria-label="配置表单">
      <FormFields
        idPrefix={`config-${category}`}
        fields={fields}
        values={values}
        errors={errors}
        context={context}
        onChange={change}
      />
      <div className="app-form-actions">
        <Button type="primary" theme="solid" htmlType="submit" loading={save.isPending}>
          保存
        </Button>
        <Button disabled={save.isPending} onClick={() => reset(configValues(rows))}>
          还原
        </Button>
      </div>
    </form>
  );
}

function ConfigCategory({ category }: { category: string }) {
  const query = useQuery(configCategoryQuery(category));
  // A new key set (after a save or a refetch) starts a fresh form from the stored values.
  return (
    <QueryStates query={query} loadingRows={8} failure="配置加载失败" isEmpty={(rows) => rows.length === 0} empty={<EmptyState title="该分类没有配置项" />}>
      {(rows) => <ConfigForm key={query.dataUpdatedAt} category={category} rows={rows} />}
    </QueryStates>
  );
}

export function ConfigPage() {
  const route = useCurrentRoute();
  const category = route?.path.split('/').pop() ?? '';
  return (
    <div className="app-config" data-config-category={category}>
      <h1 className="app-admin-page__title">{route?.title ?? '系统设置'}</h1>
      <section className="app-panel">
        <ConfigCategory key={category} category={category} />
      </section>
    </div>
  );
}
