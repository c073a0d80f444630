/** The database could not be opened: DATABASE_URL names a server that refuses or is not there. */
export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
  /** The server could not be reached (refused, cut, starting or shutting down): a later try may succeed. */
  readonly away: boolean;
  constructor(message: string, options: { away?: boolean } = {}) {
    super(message);
    this.away = options.away ?? false;
  }
}
