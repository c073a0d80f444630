// Wire types of permission (docs/moredoc.md §12; conventions in ./common.ts).

import type { Wire } from '../wire';
import type * as commonMessages from '../messages/common';
import type * as permissionMessages from '../messages/permission';

/**
 * `method`: `GRPC` for RPCs, an HTTP verb (`POST`) for upload routes.
 * `path`: Full gRPC method (`/api.v1.UserAPI/ListUser`) or HTTP path (`/api/v1/upload/banner`).
 */
export type Permission = Wire<typeof permissionMessages.Permission>;

export type ListPermissionReply = Wire<typeof permissionMessages.ListPermissionReply>;

export type GetPermissionRequest = Wire<ReturnType<typeof commonMessages.IdRequest>>;

export type ListPermissionRequest = Wire<typeof permissionMessages.ListPermissionRequest>;
