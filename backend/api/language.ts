import { defineService } from '../wire/rpc';

export const languageService = defineService('LanguageAPI', []);
