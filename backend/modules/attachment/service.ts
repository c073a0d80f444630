// What other modules may ask of the attachment module: the document uploads a member made,
// linking them to their documents, and whether a file is still in use.
export {
  DOCUMENT_ATTACHMENT_TYPE, documentUploadPaths, documentUploadsOf, hashHasLiveUpload, isBannedHash, linkAttachment, retireDocumentAttachments,
} from './store';
