// /admin/user/sms: every SMS sent (numbers masked), with filters, and the counters against the limits.
import { ResourceScreen } from '../../kit/admin-resource/ResourceScreen';
import { SmsCounters } from '../../features/sms/SmsCounters';
import { smsLogResource } from '../../features/sms/sms-log-resource';

export function SmsLogPage() {
  return (
    <>
      <ResourceScreen resource={smsLogResource} />
      <SmsCounters />
    </>
  );
}
