import { defineService } from '../wire/rpc';

export const bannerService = defineService('BannerAPI', []);
