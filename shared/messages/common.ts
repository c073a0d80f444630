import { message } from '../wire';

// Request messages that many services declare under their own names.

/** Generic `{id: [..]}` request used by the Delete* and Cancel* RPCs. */
export const IdsRequest = (name: string) => message(name, { id: 'int64[]' });
/** Generic `{id}` request used by the Get* RPCs. */
export const IdRequest = (name: string) => message(name, { id: 'int64' });
/** Generic `{page, size}` request. */
export const PageRequest = (name: string) => message(name, { page: 'int64', size: 'int64' });
