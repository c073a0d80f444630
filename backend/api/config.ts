import { defineService } from '../wire/rpc';

export const configService = defineService('ConfigAPI', []);
