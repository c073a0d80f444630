// What other modules may ask of the banner module.
export { countBanners } from './store';
