// The dashboard's converters (`GET /api/v1/envs`): which document converters this install
// has, with their versions; what is missing and why.
import { useQuery } from '@tanstack/react-query';
import { grpcPermissionPath } from '../../../../shared/permissions';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { Tag } from '../../ui/semi-extra';
import { envsQuery } from '../config/api';
import { useHeldByOutage, useSaidByOutage } from './outage-context';
import './dashboard.css';

export const ENVS_PERMISSION = grpcPermissionPath('ConfigAPI', 'GetEnvs');

/** Rendered for holders of ENVS_PERMISSION only. */
export function ConverterStatus() {
  const envs = useQuery(envsQuery());
  const saidByOutage = useSaidByOutage();
  const heldByOutage = useHeldByOutage();
  if (saidByOutage(envs)) return null;
  return (
    <Panel title="文档转换组件" titleId="dashboard-converters">
      <QueryStates
        query={envs}
        loadingRows={3}
        held={heldByOutage(envs)}
        failure="转换组件状态加载失败"
        isEmpty={(list) => list.length === 0}
        empty={<p className="app-admin-dashboard__muted">没有查看转换组件的权限，或系统未报告任何组件。</p>}
      >
        {(list) => (
          <table className="app-admin-dashboard__envs">
            <thead>
              <tr>
                <th scope="col">组件</th>
                <th scope="col">状态</th>
                <th scope="col">版本</th>
                <th scope="col">说明</th>
              </tr>
            </thead>
            <tbody>
              {list.map((env) => (
                <tr key={env.name ?? env.cmd}>
                  <td>
                    {env.name}
                    {env.is_required && <span className="app-admin-dashboard__required">必需</span>}
                  </td>
                  <td>
                    {env.is_installed ? (
                      <Tag color="green">已安装</Tag>
                    ) : (
                      <Tag color={env.is_required ? 'red' : 'grey'}>未安装</Tag>
                    )}
                  </td>
                  <td className="app-admin-dashboard__version">{env.version || '-'}</td>
                  <td>{env.error || env.description || '-'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryStates>
    </Panel>
  );
}
