// What other modules may ask of the punishment module.
export { PunishmentType, barReason, isBarred } from './store';
