import { defineService } from '../wire/rpc';

export const fileService = defineService('files', []);
