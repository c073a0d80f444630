import { defineService } from '../wire/rpc';

export const friendlinkService = defineService('FriendlinkAPI', []);
