import { defineService } from '../../platform/rpc';
import { accountRpcs } from './account-rpcs';
import { adminRpcs } from './admin-rpcs';
import { memberRpcs } from './member-rpcs';

/** UserAPI (contract endpoints.md, RPCs 1–22), split over three files by audience. */
export const userService = defineService('UserAPI', [...accountRpcs, ...adminRpcs, ...memberRpcs]);
