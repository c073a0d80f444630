// The counters of /admin/user/sms against the sending limits of the `sms` config: the whole
// site in the last hour, sent and failed in the last 24 hours, and, looked up, one number's
// or one address's count against its own limit.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { optionLabel, smsProviderOptions } from '../../../../shared/constants';
import type { GetSmsStatsRequest, SmsStats } from '../../../../shared/types/sms';
import { normalizeMainlandMobile } from '../../../../shared/validation';
import { QueryStates } from '../../kit/query-states/QueryStates';
import { TextField } from '../../ui/FormField';
import { Panel } from '../../ui/Panel';
import { Button } from '../../ui/semi';
import { checkMobile } from '../user/validation';
import { smsStatsQuery } from './api';
import './sms.css';

function Figure({ label, value, limit }: { label: string; value: number | undefined; limit?: number }) {
  return (
    <div className="app-sms-counters__figure">
      <dt>{label}</dt>
      <dd>
        {value ?? 0}
        {limit !== undefined && <span className="app-sms-counters__limit"> / {limit}</span>}
      </dd>
    </div>
  );
}

function Counters({ stats, lookup }: { stats: SmsStats; lookup: GetSmsStatsRequest }) {
  return (
    <>
      <p className="app-sms-counters__service">
        短信服务{stats.enable ? '已启用' : '未启用'}，服务商：
        {optionLabel(smsProviderOptions, stats.provider ?? '', stats.provider || '未设置')}。同一手机号每{' '}
        {stats.interval ?? 0} 秒最多 1 条、任意 24 小时最多 {stats.mobile_daily_limit ?? 0} 条；同一 IP 每小时最多{' '}
        {stats.ip_hourly_limit ?? 0} 条；全站每小时最多 {stats.site_hourly_limit ?? 0} 条。
      </p>
      <dl className="app-sms-counters__figures">
        <Figure label="全站近 1 小时" value={stats.site_last_hour} limit={stats.site_hourly_limit} />
        <Figure label="近 24 小时成功" value={stats.sent_last_day} />
        <Figure label="近 24 小时失败" value={stats.failed_last_day} />
        {lookup.mobile && (
          <Figure label="该号码近 24 小时" value={stats.mobile_last_day} limit={stats.mobile_daily_limit} />
        )}
        {lookup.ip && <Figure label="该 IP 近 1 小时" value={stats.ip_last_hour} limit={stats.ip_hourly_limit} />}
      </dl>
    </>
  );
}

export function SmsCounters() {
  const [mobile, setMobile] = useState('');
  const [ip, setIp] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [lookup, setLookup] = useState<GetSmsStatsRequest>({});
  const query = useQuery(smsStatsQuery(lookup));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkMobile(mobile);
    setError(problem);
    if (problem) return;
    setLookup({
      ...(mobile.trim() ? { mobile: normalizeMainlandMobile(mobile) ?? mobile.trim() } : {}),
      ...(ip.trim() ? { ip: ip.trim() } : {}),
    });
  };

  return (
    <Panel
      titleId="sms-counters"
      title={
        <>
          发送统计与限制
          <Button size="small" loading={query.isFetching} onClick={() => void query.refetch()}>
            刷新
          </Button>
        </>
      }
    >
      <form className="app-sms-counters__lookup" onSubmit={submit} noValidate>
        <TextField
          id="sms-lookup-mobile"
          label="手机号"
          type="tel"
          value={mobile}
          onChange={setMobile}
          error={error}
          placeholder="完整手机号"
          maxLength={20}
        />
        <TextField
          id="sms-lookup-ip"
          label="IP"
          value={ip}
          onChange={setIp}
          placeholder="完整 IP 地址"
          maxLength={64}
        />
        <Button htmlType="submit">查询</Button>
      </form>
      <QueryStates query={query} loadingRows={3} failure="发送统计加载失败">
        {(stats) => <Counters stats={stats} lookup={lookup} />}
      </QueryStates>
    </Panel>
  );
}
