// Image uploads (contract README §8.2): multipart, field `file`; the answer's `data.path` is
// the public URL path to store in the edited record (or, for the avatar, already stored).
import type { UploadImageReply } from '../../../../shared/types/attachment';
import { api } from '../../api/client';
import type { ImageUploadTarget } from '../../kit/image-upload/ImageUploadInput';

/**
 * Upload routes for images other than the avatar; each needs its `POST /api/v1/upload/<kind>`
 * permission (article images: or the right to publish articles).
 */
export type ImageUploadKind = 'config' | 'banner' | 'category' | 'article';

function uploadFile(path: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadImageReply>(path, form);
}

const uploadImage = (kind: ImageUploadKind, file: File) => uploadFile(`/api/v1/upload/${kind}`, file);

/** The member's own avatar: the backend stores it on the profile at once. */
export const uploadAvatar = (file: File) => uploadFile('/api/v1/upload/avatar', file);

/** What an admin image field of `kind` uploads through. */
export const imageUploadTarget = (kind: ImageUploadKind): ImageUploadTarget => ({ kind, upload: (file) => uploadImage(kind, file) });
