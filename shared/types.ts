// Wire types of the MOREDOC API (contract/endpoints.md §4) and of the calls in SPEC §7.
// Keys are the snake_case proto names. The backend omits zero values (0, false, '', []),
// so every field it may omit is optional.

export interface Permission {
  id?: number;
  /** `GRPC` for RPCs, an HTTP verb (`POST`) for upload routes. */
  method?: string;
  /** Full gRPC method (`/api.v1.UserAPI/ListUser`) or HTTP path (`/api/v1/upload/banner`). */
  path?: string;
  title?: string;
  description?: string;
  created_at?: string;
  updated_at?: string;
}

export interface Navigation {
  id?: number;
  title?: string;
  href?: string;
  target?: string;
  color?: string;
  /** Higher first. */
  sort?: number;
  enable?: boolean;
  /** 0 (or absent) = top level. */
  parent_id?: number;
  description?: string;
  created_at?: string;
  updated_at?: string;
  fixed?: boolean;
  children?: Navigation[];
}
