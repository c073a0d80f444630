// The dashboard's first-run checklist (`GET /api/v1/setup/checklist`): what a new site still
// lacks, each with what it stops and a link to the screen that fixes it. An item goes once
// done; the list goes with the last one. Shown to holders of its permission.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { grpcPermissionPath } from '../../../../shared/permissions';
import type { SetupItem } from '../../../../shared/types/config';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { Panel } from '../../ui/Panel';
import { setupChecklistQuery } from '../config/api';
import { useHeldByOutage, useSaidByOutage } from './outage-context';
import './dashboard.css';

export const SETUP_CHECKLIST_PERMISSION = grpcPermissionPath('ConfigAPI', 'GetSetupChecklist');

interface ChecklistEntry {
  title: string;
  consequence: string;
  to: string;
  action: string;
}

const ENTRIES: Record<SetupItem, ChecklistEntry> = {
  category: {
    title: '还没有文档分类',
    consequence: '上传文档时需要选择分类，访客也按分类浏览文库。',
    to: '/admin/document/category',
    action: '添加文档分类',
  },
  upload: {
    title: '普通用户不能上传文档',
    consequence: '会员看不到上传按钮，文档只能由管理员上传。',
    to: '/admin/user/group',
    action: '前往角色管理开启',
  },
  mail: {
    title: '邮件服务未配置',
    consequence: '会员无法通过邮件找回密码，注册时也无法验证邮箱。',
    to: '/admin/config/email',
    action: '配置邮件服务',
  },
  payment: {
    title: '没有可用的支付方式',
    consequence: '会员无法购买 VIP，也无法在线付款。',
    to: '/admin/config/pay',
    action: '配置支付方式',
  },
  domain: {
    title: '尚未填写网站域名',
    consequence: '找回密码邮件、站点地图、第三方登录与在线支付回调都需要本站的网址。',
    to: '/admin/config/system',
    action: '填写网站域名',
  },
  home_title: {
    title: '首页标题和网站描述仍是默认的“MOREDOC · 魔豆文库”',
    consequence: '访客的浏览器标签页和搜索引擎的结果里，首页显示的是这段默认文字，而不是本站的名称和介绍。',
    to: '/admin/config/system',
    action: '修改首页标题和网站描述',
  },
  admin_password: {
    title: '管理员仍在使用初始密码',
    consequence: '初始密码在首次启动时打印到了日志里，请尽快改为只有您知道的密码。',
    // PasswordForm's PASSWORD_FORM_HASH, spelled here: importing it would split the form into a chunk of its own.
    to: '/member/profile#password',
    action: '修改密码',
  },
  libreoffice: {
    title: '未安装 LibreOffice',
    consequence: 'Word、PPT、Excel、WPS 等 Office 文档将无法转换（例如 apt install libreoffice-writer-nogui）。',
    to: '#dashboard-converters',
    action: '查看转换组件',
  },
  calibre: {
    title: '未安装 calibre',
    consequence: 'AZW3、AZW4、CHM 等电子书将无法转换（例如 apt install calibre）。',
    to: '#dashboard-converters',
    action: '查看转换组件',
  },
};

function ChecklistLink({ entry }: { entry: ChecklistEntry }) {
  // The converters' entries point at the panel below on this screen.
  if (entry.to.startsWith('#'))
    return (
      <a className="app-admin-dashboard__action" href={entry.to}>
        {entry.action}
      </a>
    );
  return (
    <Link className="app-admin-dashboard__action" to={entry.to}>
      {entry.action}
    </Link>
  );
}

export function SetupChecklist() {
  const checklist = useQuery(setupChecklistQuery());
  const saidByOutage = useSaidByOutage();
  const heldByOutage = useHeldByOutage();
  if ((checklist.isSuccess && checklist.data.length === 0) || saidByOutage(checklist)) return null;
  return (
    <Panel title="建站清单" titleId="dashboard-checklist">
      <QueryStates query={checklist} loadingRows={3} held={heldByOutage(checklist)} failure="建站清单加载失败">
        {(missing) => (
          <>
            <p className="app-admin-dashboard__muted">
              新站点还有以下 {missing.length} 项尚未完成，完成后对应的提示会自动消失。
            </p>
            <ul className="app-admin-dashboard__checklist">
              {missing.map((item) => (
                <li key={item} className="app-admin-dashboard__checklist-item">
                  <div>
                    <strong>{ENTRIES[item].title}</strong>
                    <p className="app-admin-dashboard__muted">{ENTRIES[item].consequence}</p>
                  </div>
                  <ChecklistLink entry={ENTRIES[item]} />
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryStates>
    </Panel>
  );
}
