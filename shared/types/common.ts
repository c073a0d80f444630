// Shapes every service shares. Keys are the snake_case proto names; the backend omits zero
// values (0, false, '', []), so every field it may omit is optional. Timestamps are RFC 3339
// strings; int64 values travel as JSON numbers (docs/moredoc.md §12).

import type { EmptyMessage, Wire } from '../wire';

/** `google.protobuf.Empty`: `{}` in both directions. */
export type Empty = Wire<EmptyMessage>;

/** Error body of every failed call (docs/moredoc.md §5). */
export interface ErrorBody {
  error?: string;
  /** gRPC code (16 Unauthenticated, 7 PermissionDenied, …), or the HTTP status for gateway errors. */
  code?: number;
  message?: string;
}
