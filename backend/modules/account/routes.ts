import { defineService } from '../../platform/rpc';
import { accountRpcs } from './account-rpcs';
import { adminRpcs } from './admin-rpcs';
import { memberRpcs } from './member-rpcs';
import { phoneRpcs } from './phone-rpcs';
import { smsLogRpcs } from './sms-log-rpcs';

/**
 * UserAPI (docs/moredoc.md, its RPCs 1–22), split over files by audience, plus ours
 * (docs/api.md §6): the mobile-number flows and the SMS log. These flows compose the user
 * module (who a user is) with the modules around it (groups, VIP, documents, punishments,
 * SMS), which is why they live apart from it: the modules below import the user module.
 */
export const accountService = defineService('UserAPI', [
  ...accountRpcs,
  ...adminRpcs,
  ...memberRpcs,
  ...phoneRpcs,
  ...smsLogRpcs,
]);
