// Uploads (docs/moredoc.md §8): images (the answer's `data.path` is the public URL path to
// store in the edited record, or, for the avatar, already stored) and documents (the
// answer's `data.id` is the attachment CreateDocument turns into a document).
import { queryOptions } from '@tanstack/react-query';
import type { DocumentFormats, UploadImageReply } from '../../../../shared/types/attachment';
import type { UploadDocumentReply } from '../../../../shared/types/document';
import { api, unwrap, type UploadOptions } from '../../api/client';
import { rightQuery } from '../../api/right-query';
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
export const imageUploadTarget = (kind: ImageUploadKind): ImageUploadTarget => ({
  kind,
  upload: (file) => uploadImage(kind, file),
});

export const uploadKeys = {
  /** Whether the signed-in member may upload documents (kept per member). */
  right: (userId: number) => ['upload', 'right', userId] as const,
  formats: ['upload', 'formats'] as const,
};

/**
 * The document formats the upload takes now, lower-case without the dot (`GET
 * /api/v1/document/formats`): those the site allows that convert with what the server has
 * installed (no Office files without LibreOffice). Asked again whenever the upload page opens.
 */
export const documentFormatsQuery = () =>
  queryOptions({
    queryKey: uploadKeys.formats,
    queryFn: async () =>
      (unwrap(await api.get<DocumentFormats>('/api/v1/document/formats')).ext ?? []).map((ext) =>
        ext.replace(/^\./, ''),
      ),
    staleTime: 0,
  });

/** Whether the member may upload documents, and if not why (`GET /api/v1/user/caniuploaddocument`). */
export const uploadRightQuery = (userId: number) =>
  rightQuery(uploadKeys.right(userId), '/api/v1/user/caniuploaddocument');

/** One document file to `POST /api/v1/upload/document`; `data.id` is the attachment to create the document from. */
export function uploadDocumentFile(file: File, options: UploadOptions) {
  const form = new FormData();
  form.append('file', file);
  return api.upload<UploadDocumentReply>('/api/v1/upload/document', form, options);
}
