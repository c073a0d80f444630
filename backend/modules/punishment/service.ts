// What other modules may ask of the punishment module.
export { PunishmentType, isBarred } from './store';
