/** The database could not be opened: DATABASE_URL names a server that refuses or is not there. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}
