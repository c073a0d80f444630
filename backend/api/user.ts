import { defineService } from '../platform/rpc';
import { accountRpcs } from './user-account';
import { adminRpcs } from './user-admin';
import { memberRpcs } from './user-member';

/** UserAPI (contract endpoints.md, RPCs 1–22), split over three files by audience. */
export const userService = defineService('UserAPI', [...accountRpcs, ...adminRpcs, ...memberRpcs]);
