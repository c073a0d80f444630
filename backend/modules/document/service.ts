// What other modules may ask of the document module: documents by id, uuid or file hash,
// who may see them and their pages, the upload right, counters that other modules move
// (downloads, favourites, comments) with the search index after them, documents as the lists
// answer them (presentDocuments), and the counts of the dashboard and the sitemap.
// Kept stable for the modules built on it: functions are added here, never renamed.
export {
  MEMBERS_ONLY,
  freePages,
  mayUpload,
  membersOnly,
  pageAccess,
  seesDocument,
  type PageDecision,
  type PageRef,
} from './access';
export { conversionBacklog } from './conversion';
export { convertibleExtensions, converterEnvironment, type ConverterEnvironment } from './environment';
export { isMd5, originalKey, outputFolder, outputKey } from './files';
export { refreshSearchIndex } from './indexing';
export { uploadReward, type UploadReward } from './upload-reward';
export { hideCounters, listedDocumentFields, presentDocuments, type Viewer, type WireDocument } from './present';
export {
  HIDDEN_STATUSES,
  UNSEARCHABLE_STATUSES,
  bumpCounter,
  countListedDocuments,
  documentById,
  documentByUuid,
  documentsByHash,
  documentsByIds,
  fileHashOf,
  hashHasDocuments,
  isPublic,
  isSearchable,
  publicDocumentLinks,
  type DocumentRow,
} from './store';
