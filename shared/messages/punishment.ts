import { message } from '../wire';

// PunishmentAPI's messages.

export const Punishment = message('Punishment', {
  end_time: 'time',
  created_at: 'time',
  updated_at: 'time',
  id: 'int64',
  user_id: 'int64',
  type: 'int32',
  enable: 'bool',
  operators: 'string',
  remark: 'string',
  reason: 'string',
  username: 'string',
});

export const CreatePunishmentRequest = message('CreatePunishmentRequest', {
  end_time: 'time',
  id: 'int64',
  user_id: 'int64[]',
  type: 'int32[]',
  enable: 'bool',
  remark: 'string',
  reason: 'string',
});
export const ListPunishmentRequest = message('ListPunishmentRequest', {
  page: 'int64',
  size: 'int64',
  wd: 'string',
  field: 'string[]',
  order: 'string',
  type: 'int32[]',
  enable: 'int32[]',
  user_id: 'int64[]',
});
export const ListPunishmentReply = message('ListPunishmentReply', { total: 'int64', punishment: [Punishment] });
