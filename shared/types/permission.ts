// Wire types of permission (docs/moredoc.md §12; conventions in ./common.ts).

import type { PageRequest } from './common';

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

export interface ListPermissionReply { total?: number; permission?: Permission[] }

export interface GetPermissionRequest { id: number }

export interface ListPermissionRequest extends Omit<PageRequest, 'field'> {
  method?: string[];
  path?: string;
}
