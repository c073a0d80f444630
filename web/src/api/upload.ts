// Image uploads of the admin screens (contract README §8.2): multipart, field `file`; the
// answer's `data.path` is the public URL path to store in the edited record.
import type { UploadImageReply } from '../../../shared/types/attachment';
import { api } from './client';

/** Upload routes for images other than the avatar; each needs its `POST /api/v1/upload/<kind>` permission. */
export type ImageUploadKind = 'config' | 'banner' | 'category';

export const uploadImage = (kind: ImageUploadKind, file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadImageReply>(`/api/v1/upload/${kind}`, form);
};
