import { defineService } from '../wire/rpc';

export const categoryService = defineService('CategoryAPI', []);
