// What other modules may ask of the attachment module: receiving an uploaded file (the
// document module's upload), copying a remote image (an OAuth avatar), recording it, the document uploads a member made, linking them
// to their documents, whether a file is still in use, and the admin's queries (AttachmentAPI,
// served by the attachment-admin module, which also asks the document module).
export {
  DOCUMENT_ATTACHMENT_TYPE,
  documentUploadPaths,
  documentUploadsOf,
  hashHasLiveUpload,
  insertAttachment,
  isBannedHash,
  linkAttachment,
  retireAttachments,
  retireDocumentAttachments,
} from './store';
export { copyRemoteImage, type CopiedImage } from './remote-image';
export { maxUploadBytes, receiveFile, registerMultipartRoutes } from './receive-file';
// admin-store.ts holds the admin's queries only, all of them for attachment-admin.
export * from './admin-store';
