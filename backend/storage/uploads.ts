import { defineService } from '../wire/rpc';

export const uploadService = defineService('upload', []);
