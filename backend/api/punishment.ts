import { defineService } from '../wire/rpc';

export const punishmentService = defineService('PunishmentAPI', []);
