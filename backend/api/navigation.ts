import { defineService } from '../wire/rpc';

export const navigationService = defineService('NavigationAPI', []);
