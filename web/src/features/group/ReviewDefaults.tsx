// 安全配置's 内容审核: whether what new members upload, comment and write waits for review. Each
// kind has one setting, the default role's (the role new members join: 普通用户 on a new site),
// so this panel reads and writes that role; other roles are set in 角色管理. Writing it takes
// 更新用户组, which an admin of the settings alone may lack: the switches are then read-only.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { Group } from '../../../../shared/types/group';
import { unwrap } from '../../api/client';
import { useMayCall } from '../../kit/admin-resource/permission-check';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { toastFailure } from '../../kit/toasts/failure-toast';
import { toast } from '../../kit/toasts/toast-store';
import { Panel } from '../../ui/Panel';
import { Switch } from '../../ui/semi-extra';
import { EmptyState } from '../../ui/states';
import { allGroupsQuery, groupWrites } from './api';
import './review-defaults.css';

type ReviewKey = 'enable_document_review' | 'enable_comment_approval' | 'enable_article_approval';

const KINDS: { key: ReviewKey; label: string; hint: string }[] = [
  {
    key: 'enable_document_review',
    label: '上传的文档需要审核',
    hint: '审核通过前文档不公开（审核人员可在阅读器中查看）',
  },
  { key: 'enable_comment_approval', label: '评论需要审核', hint: '审核通过前评论不显示' },
  { key: 'enable_article_approval', label: '文章需要审核', hint: '审核通过前文章不发布' },
];

const UPDATE_GROUP = grpcPermissionPath('GroupAPI', 'UpdateGroup');

function ReviewSwitches({ group }: { group: Group }) {
  const mayUpdate = useMayCall()(UPDATE_GROUP);
  const save = useMutation({
    mutationFn: async (change: Partial<Record<ReviewKey, boolean>>, context) =>
      unwrap(await groupWrites.update({ ...group, ...change }, context)),
    onSuccess: () => toast.success('保存成功', '审核设置已更新'),
    onError: (error) => toastFailure('保存失败', error),
  });
  return (
    <>
      <p className="app-field__hint">
        新注册用户所在的默认角色“{group.title}”的审核设置；管理员和其他角色请在{' '}
        <Link to="/admin/user/group">角色管理</Link> 中设置。
      </p>
      {!mayUpdate && (
        <p className="app-config-form__read-only" role="note">
          您只能查看这些设置：修改需要“更新用户组”权限，请联系管理员。
        </p>
      )}
      <ul className="app-review-defaults">
        {KINDS.map((kind) => (
          <li key={kind.key} className="app-review-defaults__item">
            <Switch
              id={`review-${kind.key}`}
              checked={(save.variables?.[kind.key] ?? group[kind.key]) === true}
              loading={save.isPending && save.variables?.[kind.key] !== undefined}
              disabled={!mayUpdate || save.isPending}
              onChange={(checked: boolean) => save.mutate({ [kind.key]: checked })}
              aria-labelledby={`review-${kind.key}-label`}
            />
            <span>
              <span id={`review-${kind.key}-label`} className="app-review-defaults__label">
                {kind.label}
              </span>
              <span className="app-field__hint">{kind.hint}</span>
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function ReviewDefaults() {
  const query = useQuery(allGroupsQuery());
  return (
    <Panel titleId="review-defaults" title="内容审核">
      <QueryStates
        query={query}
        loadingRows={3}
        failure="角色加载失败"
        isEmpty={(groups) => !groups.some((g) => g.is_default)}
        empty={
          <EmptyState
            title="没有默认角色"
            description={<Link to="/admin/user/group">在角色管理中设置新用户加入的默认角色</Link>}
          />
        }
      >
        {(groups) => {
          const group = groups.find((g) => g.is_default)!;
          return <ReviewSwitches key={`${group.id}-${query.dataUpdatedAt}`} group={group} />;
        }}
      </QueryStates>
    </Panel>
  );
}
