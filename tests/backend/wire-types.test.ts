import { describe, expect, it } from 'vitest';
import type { EnumSpec, Fields, MessageType } from '../../shared/wire';
import { IdRequest, IdsRequest, PageRequest } from '../../shared/messages/common';
import * as advertisementMessages from '../../shared/messages/advertisement';
import * as articleMessages from '../../shared/messages/article';
import * as attachmentMessages from '../../shared/messages/attachment';
import * as bannerMessages from '../../shared/messages/banner';
import * as categoryMessages from '../../shared/messages/category';
import * as commentMessages from '../../shared/messages/comment';
import * as configMessages from '../../shared/messages/config';
import * as documentMessages from '../../shared/messages/document';
import * as documentSearchMessages from '../../shared/messages/document-search';
import * as downloadMessages from '../../shared/messages/download';
import * as favoriteMessages from '../../shared/messages/favorite';
import * as feedbackMessages from '../../shared/messages/feedback';
import * as friendlinkMessages from '../../shared/messages/friendlink';
import * as groupMessages from '../../shared/messages/group';
import * as languageMessages from '../../shared/messages/language';
import * as navigationMessages from '../../shared/messages/navigation';
import * as oauthMessages from '../../shared/messages/oauth';
import * as permissionMessages from '../../shared/messages/permission';
import * as punishmentMessages from '../../shared/messages/punishment';
import * as reportMessages from '../../shared/messages/report';
import * as searchRecordMessages from '../../shared/messages/search-record';
import * as smsMessages from '../../shared/messages/sms';
import * as userMessages from '../../shared/messages/user';
import type * as advertisement from '../../shared/types/advertisement';
import type * as article from '../../shared/types/article';
import * as vipMessages from '../../shared/messages/vip';
import * as orderMessages from '../../shared/messages/order';
import * as paymentMessages from '../../shared/messages/payment';
import * as messageMessages from '../../shared/messages/message';
import type * as attachment from '../../shared/types/attachment';
import type * as banner from '../../shared/types/banner';
import type * as category from '../../shared/types/category';
import type * as comment from '../../shared/types/comment';
import type * as config from '../../shared/types/config';
import type * as document from '../../shared/types/document';
import type * as feedback from '../../shared/types/feedback';
import type * as friendlink from '../../shared/types/friendlink';
import type * as group from '../../shared/types/group';
import type * as language from '../../shared/types/language';
import type * as navigation from '../../shared/types/navigation';
import type * as oauth from '../../shared/types/oauth';
import type * as permission from '../../shared/types/permission';
import type * as punishment from '../../shared/types/punishment';
import type * as report from '../../shared/types/report';
import type * as sms from '../../shared/types/sms';
import type * as user from '../../shared/types/user';
import type * as vip from '../../shared/types/vip';
import type * as order from '../../shared/types/order';
import type * as messageTypes from '../../shared/types/message';

// One definition per entity: the wire types in shared/ are what the backend's messages
// encode (docs/architecture.md). `tsc` (npm run typecheck) checks every pair below; a mismatch is a
// compile error on the pair's line that names the fields: only in the message, only in
// the shared type, of another type, or required in a reply that omits zero values.

/** The JSON a message encodes to: every field may be omitted (zero values are). */
type WireOf<F extends Fields> = { -readonly [K in keyof F]?: FieldWire<F[K]> };
type ScalarWire<S> = S extends 'int32' | 'int64' | 'float' ? number
  : S extends 'string' | 'time' ? string
  : S extends 'bool' ? boolean
  : never;
type FieldWire<S> = S extends `${infer B}[]` ? ScalarWire<B>[]
  : S extends EnumSpec ? number
  : S extends readonly [MessageType<infer F>] ? WireOf<F>[]
  : S extends MessageType<infer F> ? WireOf<F>
  : ScalarWire<S>;
type Wire<M> = M extends MessageType<infer F> ? WireOf<F> : never;

type OnlyIn<A, B> = Exclude<keyof A, keyof B>;
/** Fields whose shared type is not the message's (a shared type may narrow, e.g. to literals). */
type Differing<W, S> = { [K in keyof W & keyof S]-?: [NonNullable<S[K]>] extends [NonNullable<W[K]>] ? never : K }[keyof W & keyof S];
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** What the backend answers and the SPA reads: the same fields, all of them optional. */
type ReplyVerdict<W, S> = [OnlyIn<W, S>, OnlyIn<S, W>, Differing<W, S>, RequiredKeys<S>] extends [never, never, never, never]
  ? 'agree'
  : { onlyInMessage: OnlyIn<W, S>; onlyInShared: OnlyIn<S, W>; differentTypes: Differing<W, S>; requiredInShared: RequiredKeys<S> };
/** What the SPA sends: the backend refuses unknown fields, so every shared field must be one of the message's. */
type RequestVerdict<W, S> = [OnlyIn<S, W>, Differing<W, S>] extends [never, never]
  ? 'agree'
  : { onlyInShared: OnlyIn<S, W>; differentTypes: Differing<W, S> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMessage = MessageType<any>;
const reply = <M extends AnyMessage, S>(_message: M, verdict: ReplyVerdict<Wire<M>, S>) => verdict;
const request = <M extends AnyMessage, S>(_message: M, verdict: RequestVerdict<Wire<M>, S>) => verdict;

const { User, Dynamic, Sign, LoginReply, GetUserCaptchaReply, ListUserReply, GetUserPermissionsReply, ListUserDynamicReply,
  ListUserGroupReply } = userMessages;
const { Download, ListUserDownloadReply, DownloadDocumentReply, DocumentPurchase } = downloadMessages;

/** Every entity and reply message of the backend with its shared type. */
const replies = {
  Advertisement: reply<typeof advertisementMessages.Advertisement, advertisement.Advertisement>(advertisementMessages.Advertisement, 'agree'),
  ListAdvertisementReply: reply<typeof advertisementMessages.ListAdvertisementReply, advertisement.ListAdvertisementReply>(advertisementMessages.ListAdvertisementReply, 'agree'),
  User: reply<typeof User, user.User>(User, 'agree'),
  Dynamic: reply<typeof Dynamic, user.Dynamic>(Dynamic, 'agree'),
  Sign: reply<typeof Sign, user.Sign>(Sign, 'agree'),
  Download: reply<typeof Download, document.Download>(Download, 'agree'),
  LoginReply: reply<typeof LoginReply, user.LoginReply>(LoginReply, 'agree'),
  GetUserCaptchaReply: reply<typeof GetUserCaptchaReply, user.GetUserCaptchaReply>(GetUserCaptchaReply, 'agree'),
  ListUserReply: reply<typeof ListUserReply, user.ListUserReply>(ListUserReply, 'agree'),
  GetUserPermissionsReply: reply<typeof GetUserPermissionsReply, user.GetUserPermissionsReply>(GetUserPermissionsReply, 'agree'),
  ListUserDynamicReply: reply<typeof ListUserDynamicReply, user.ListUserDynamicReply>(ListUserDynamicReply, 'agree'),
  ListUserDownloadReply: reply<typeof ListUserDownloadReply, user.ListUserDownloadReply>(ListUserDownloadReply, 'agree'),
  DownloadDocumentReply: reply<typeof DownloadDocumentReply, document.DownloadDocumentReply>(DownloadDocumentReply, 'agree'),
  DocumentPurchase: reply<typeof DocumentPurchase, document.DocumentPurchase>(DocumentPurchase, 'agree'),
  ListUserGroupReply: reply<typeof ListUserGroupReply, user.ListUserGroupReply>(ListUserGroupReply, 'agree'),
  Group: reply<typeof groupMessages.Group, group.Group>(groupMessages.Group, 'agree'),
  ListGroupReply: reply<typeof groupMessages.ListGroupReply, group.ListGroupReply>(groupMessages.ListGroupReply, 'agree'),
  GroupPermissions: reply<typeof groupMessages.GroupPermissions, group.GroupPermissions>(groupMessages.GroupPermissions, 'agree'),
  Permission: reply<typeof permissionMessages.Permission, permission.Permission>(permissionMessages.Permission, 'agree'),
  ListPermissionReply: reply<typeof permissionMessages.ListPermissionReply, permission.ListPermissionReply>(permissionMessages.ListPermissionReply, 'agree'),
  Config: reply<typeof configMessages.Config, config.Config>(configMessages.Config, 'agree'),
  Configs: reply<typeof configMessages.Configs, config.Configs>(configMessages.Configs, 'agree'),
  ConfigSystem: reply<typeof configMessages.ConfigSystem, config.ConfigSystem>(configMessages.ConfigSystem, 'agree'),
  ConfigFooter: reply<typeof configMessages.ConfigFooter, config.ConfigFooter>(configMessages.ConfigFooter, 'agree'),
  ConfigSecurity: reply<typeof configMessages.ConfigSecurity, config.ConfigSecurity>(configMessages.ConfigSecurity, 'agree'),
  ConfigDisplay: reply<typeof configMessages.ConfigDisplay, config.ConfigDisplay>(configMessages.ConfigDisplay, 'agree'),
  VipPlan: reply<typeof configMessages.VipPlan, config.VipPlan>(configMessages.VipPlan, 'agree'),
  ConfigVip: reply<typeof configMessages.ConfigVip, config.ConfigVip>(configMessages.ConfigVip, 'agree'),
  ConfigOauth: reply<typeof configMessages.ConfigOauth, config.ConfigOauth>(configMessages.ConfigOauth, 'agree'),
  ConfigPay: reply<typeof configMessages.ConfigPay, config.ConfigPay>(configMessages.ConfigPay, 'agree'),
  Settings: reply<typeof configMessages.Settings, config.Settings>(configMessages.Settings, 'agree'),
  Stats: reply<typeof configMessages.Stats, config.Stats>(configMessages.Stats, 'agree'),
  EnvDependent: reply<typeof configMessages.EnvDependent, config.EnvDependent>(configMessages.EnvDependent, 'agree'),
  Envs: reply<typeof configMessages.Envs, config.Envs>(configMessages.Envs, 'agree'),
  SetupChecklist: reply<typeof configMessages.SetupChecklist, config.SetupChecklist>(configMessages.SetupChecklist, 'agree'),
  CPUInfo: reply<typeof configMessages.CPUInfo, config.CPUInfo>(configMessages.CPUInfo, 'agree'),
  MemoryInfo: reply<typeof configMessages.MemoryInfo, config.MemoryInfo>(configMessages.MemoryInfo, 'agree'),
  DiskInfo: reply<typeof configMessages.DiskInfo, config.DiskInfo>(configMessages.DiskInfo, 'agree'),
  DeviceInfo: reply<typeof configMessages.DeviceInfo, config.DeviceInfo>(configMessages.DeviceInfo, 'agree'),
  Release: reply<typeof configMessages.Release, config.Release>(configMessages.Release, 'agree'),
  Navigation: reply<typeof navigationMessages.Navigation, navigation.Navigation>(navigationMessages.Navigation, 'agree'),
  ListNavigationReply: reply<typeof navigationMessages.ListNavigationReply, navigation.ListNavigationReply>(navigationMessages.ListNavigationReply, 'agree'),
  Category: reply<typeof categoryMessages.Category, category.Category>(categoryMessages.Category, 'agree'),
  ListCategoryReply: reply<typeof categoryMessages.ListCategoryReply, category.ListCategoryReply>(categoryMessages.ListCategoryReply, 'agree'),
  Banner: reply<typeof bannerMessages.Banner, banner.Banner>(bannerMessages.Banner, 'agree'),
  ListBannerReply: reply<typeof bannerMessages.ListBannerReply, banner.ListBannerReply>(bannerMessages.ListBannerReply, 'agree'),
  Friendlink: reply<typeof friendlinkMessages.Friendlink, friendlink.Friendlink>(friendlinkMessages.Friendlink, 'agree'),
  ListFriendlinkReply: reply<typeof friendlinkMessages.ListFriendlinkReply, friendlink.ListFriendlinkReply>(friendlinkMessages.ListFriendlinkReply, 'agree'),
  Attachment: reply<typeof attachmentMessages.Attachment, attachment.Attachment>(attachmentMessages.Attachment, 'agree'),
  ListAttachmentReply: reply<typeof attachmentMessages.ListAttachmentReply, attachment.ListAttachmentReply>(attachmentMessages.ListAttachmentReply, 'agree'),
  SearchHitDocument: reply<typeof documentSearchMessages.SearchHitDocument, document.SearchedDocument>(documentSearchMessages.SearchHitDocument, 'agree'),
  SearchDocumentReply: reply<typeof documentSearchMessages.SearchDocumentReply, document.SearchDocumentReply>(documentSearchMessages.SearchDocumentReply, 'agree'),
  Favorite: reply<typeof favoriteMessages.Favorite, document.Favorite>(favoriteMessages.Favorite, 'agree'),
  ListFavoriteReply: reply<typeof favoriteMessages.ListFavoriteReply, document.ListFavoriteReply>(favoriteMessages.ListFavoriteReply, 'agree'),
  SearchRecord: reply<typeof searchRecordMessages.SearchRecord, document.SearchRecord>(searchRecordMessages.SearchRecord, 'agree'),
  ListSearchRecordReply: reply<typeof searchRecordMessages.ListSearchRecordReply, document.ListSearchRecordReply>(searchRecordMessages.ListSearchRecordReply, 'agree'),
  Language: reply<typeof languageMessages.Language, language.Language>(languageMessages.Language, 'agree'),
  ListLanguageReply: reply<typeof languageMessages.ListLanguageReply, language.ListLanguageReply>(languageMessages.ListLanguageReply, 'agree'),
  Punishment: reply<typeof punishmentMessages.Punishment, punishment.Punishment>(punishmentMessages.Punishment, 'agree'),
  ListPunishmentReply: reply<typeof punishmentMessages.ListPunishmentReply, punishment.ListPunishmentReply>(punishmentMessages.ListPunishmentReply, 'agree'),
  AuthorizeReply: reply<typeof oauthMessages.AuthorizeReply, oauth.OAuthAuthorizeReply>(oauthMessages.AuthorizeReply, 'agree'),
  ConvertProgress: reply<typeof documentMessages.ConvertProgress, document.ConvertProgress>(documentMessages.ConvertProgress, 'agree'),
  ReadingPosition: reply<typeof documentMessages.ReadingPosition, document.ReadingPosition>(documentMessages.ReadingPosition, 'agree'),
  ReadingRecord: reply<typeof documentMessages.ReadingRecord, document.ReadingRecord>(documentMessages.ReadingRecord, 'agree'),
  ListReadingHistoryReply: reply<typeof documentMessages.ListReadingHistoryReply, document.ListReadingHistoryReply>(documentMessages.ListReadingHistoryReply, 'agree'),
  FoundLine: reply<typeof documentMessages.FoundLine, document.FoundLine>(documentMessages.FoundLine, 'agree'),
  FindInDocumentReply: reply<typeof documentMessages.FindInDocumentReply, document.FindInDocumentReply>(documentMessages.FindInDocumentReply, 'agree'),
  Document: reply<typeof documentMessages.Document, document.Document>(documentMessages.Document, 'agree'),
  DocumentScore: reply<typeof documentMessages.DocumentScore, document.DocumentScore>(documentMessages.DocumentScore, 'agree'),
  ListDocumentReply: reply<typeof documentMessages.ListDocumentReply, document.ListDocumentReply>(documentMessages.ListDocumentReply, 'agree'),
  ListDocumentForHomeItem: reply<typeof documentMessages.ListDocumentForHomeItem, document.ListDocumentForHomeItem>(documentMessages.ListDocumentForHomeItem, 'agree'),
  ListDocumentForHomeResponse: reply<typeof documentMessages.ListDocumentForHomeResponse, document.ListDocumentForHomeResponse>(documentMessages.ListDocumentForHomeResponse, 'agree'),
  Article: reply<typeof articleMessages.Article, article.Article>(articleMessages.Article, 'agree'),
  ListArticleReply: reply<typeof articleMessages.ListArticleReply, article.ListArticleReply>(articleMessages.ListArticleReply, 'agree'),
  SearchArticleReply: reply<typeof articleMessages.SearchArticleReply, article.SearchArticleReply>(articleMessages.SearchArticleReply, 'agree'),
  SearchHitArticle: reply<typeof articleMessages.SearchHitArticle, article.ArticleHit>(articleMessages.SearchHitArticle, 'agree'),
  Comment: reply<typeof commentMessages.Comment, comment.Comment>(commentMessages.Comment, 'agree'),
  ListCommentReply: reply<typeof commentMessages.ListCommentReply, comment.ListCommentReply>(commentMessages.ListCommentReply, 'agree'),
  Report: reply<typeof reportMessages.Report, report.Report>(reportMessages.Report, 'agree'),
  ListReportReply: reply<typeof reportMessages.ListReportReply, report.ListReportReply>(reportMessages.ListReportReply, 'agree'),
  Feedback: reply<typeof feedbackMessages.Feedback, feedback.Feedback>(feedbackMessages.Feedback, 'agree'),
  ListFeedbackReply: reply<typeof feedbackMessages.ListFeedbackReply, feedback.ListFeedbackReply>(feedbackMessages.ListFeedbackReply, 'agree'),
  UserVip: reply<typeof vipMessages.UserVip, vip.UserVip>(vipMessages.UserVip, 'agree'),
  VipLog: reply<typeof vipMessages.VipLog, vip.VipLog>(vipMessages.VipLog, 'agree'),
  ListUserVipReply: reply<typeof vipMessages.ListUserVipReply, vip.ListUserVipReply>(vipMessages.ListUserVipReply, 'agree'),
  ListUserVipLogReply: reply<typeof vipMessages.ListUserVipLogReply, vip.ListUserVipLogReply>(vipMessages.ListUserVipLogReply, 'agree'),
  Order: reply<typeof orderMessages.Order, order.Order>(orderMessages.Order, 'agree'),
  PayOrderReply: reply<typeof orderMessages.PayOrderReply, order.PayOrderReply>(orderMessages.PayOrderReply, 'agree'),
  ListOrderReply: reply<typeof orderMessages.ListOrderReply, order.ListOrderReply>(orderMessages.ListOrderReply, 'agree'),
  PaymentNotification: reply<typeof paymentMessages.PaymentNotification, order.PaymentNotification>(paymentMessages.PaymentNotification, 'agree'),
  ListPaymentNotificationReply: reply<typeof paymentMessages.ListPaymentNotificationReply, order.ListPaymentNotificationReply>(paymentMessages.ListPaymentNotificationReply, 'agree'),
  ConfigSms: reply<typeof configMessages.ConfigSms, config.ConfigSms>(configMessages.ConfigSms, 'agree'),
  ConfigEmail: reply<typeof configMessages.ConfigEmail, config.ConfigEmail>(configMessages.ConfigEmail, 'agree'),
  SendSmsCodeReply: reply<typeof userMessages.SendSmsCodeReply, user.SendSmsCodeReply>(userMessages.SendSmsCodeReply, 'agree'),
  SmsLog: reply<typeof smsMessages.SmsLog, sms.SmsLog>(smsMessages.SmsLog, 'agree'),
  ListSmsLogReply: reply<typeof smsMessages.ListSmsLogReply, sms.ListSmsLogReply>(smsMessages.ListSmsLogReply, 'agree'),
  SmsStats: reply<typeof smsMessages.SmsStats, sms.SmsStats>(smsMessages.SmsStats, 'agree'),
  Message: reply<typeof messageMessages.Message, messageTypes.Message>(messageMessages.Message, 'agree'),
  ListMessageReply: reply<typeof messageMessages.ListMessageReply, messageTypes.ListMessageReply>(messageMessages.ListMessageReply, 'agree'),
  UnreadMessages: reply<typeof messageMessages.UnreadMessages, messageTypes.UnreadMessages>(messageMessages.UnreadMessages, 'agree'),
  DocumentFormats: reply<typeof attachmentMessages.DocumentFormats, attachment.DocumentFormats>(attachmentMessages.DocumentFormats, 'agree'),
};

const { RegisterAndLoginRequest, GetUserCaptchaRequest, FindPasswordRequest, SendEmailCodeRequest, GetUserRequest, UpdateUserPasswordRequest,
  DeleteUserRequest, SetUserRequest, ListUserRequest } = userMessages;
const idRequest = IdRequest('GetRequest');
const idsRequest = IdsRequest('DeleteRequest');
const pageRequest = PageRequest('PageRequest');

/** Every request message the backend decodes with the shared type the SPA sends. */
const requests = {
  ListAdvertisementRequest: request<typeof advertisementMessages.ListAdvertisementRequest, advertisement.ListAdvertisementRequest>(advertisementMessages.ListAdvertisementRequest, 'agree'),
  GetAdvertisementByPositionRequest: request<typeof advertisementMessages.GetAdvertisementByPositionRequest, advertisement.GetAdvertisementByPositionRequest>(advertisementMessages.GetAdvertisementByPositionRequest, 'agree'),
  GetAdvertisementRequest: request<typeof idRequest, advertisement.GetAdvertisementRequest>(idRequest, 'agree'),
  DeleteAdvertisementRequest: request<typeof idsRequest, advertisement.DeleteAdvertisementRequest>(idsRequest, 'agree'),
  RegisterAndLoginRequest: request<typeof RegisterAndLoginRequest, user.RegisterAndLoginRequest>(RegisterAndLoginRequest, 'agree'),
  GetUserCaptchaRequest: request<typeof GetUserCaptchaRequest, user.GetUserCaptchaRequest>(GetUserCaptchaRequest, 'agree'),
  FindPasswordRequest: request<typeof FindPasswordRequest, user.FindPasswordRequest>(FindPasswordRequest, 'agree'),
  SendEmailCodeRequest: request<typeof SendEmailCodeRequest, user.SendEmailCodeRequest>(SendEmailCodeRequest, 'agree'),
  GetUserRequest: request<typeof GetUserRequest, user.GetUserRequest>(GetUserRequest, 'agree'),
  UpdateUserPasswordRequest: request<typeof UpdateUserPasswordRequest, user.UpdateUserPasswordRequest>(UpdateUserPasswordRequest, 'agree'),
  UpdateUserProfileRequest: request<typeof User, user.UpdateUserProfileRequest>(User, 'agree'),
  DeleteUserRequest: request<typeof DeleteUserRequest, user.DeleteUserRequest>(DeleteUserRequest, 'agree'),
  SetUserRequest: request<typeof SetUserRequest, user.SetUserRequest>(SetUserRequest, 'agree'),
  ListUserRequest: request<typeof ListUserRequest, user.ListUserRequest>(ListUserRequest, 'agree'),
  ListUserDynamicRequest: request<typeof pageRequest, user.ListUserDynamicRequest>(pageRequest, 'agree'),
  ListUserDownloadRequest: request<typeof pageRequest, user.ListUserDownloadRequest>(pageRequest, 'agree'),
  GetGroupRequest: request<typeof groupMessages.GetGroupRequest, group.GetGroupRequest>(groupMessages.GetGroupRequest, 'agree'),
  ListGroupRequest: request<typeof groupMessages.ListGroupRequest, group.ListGroupRequest>(groupMessages.ListGroupRequest, 'agree'),
  UpdateGroupPermissionRequest: request<typeof groupMessages.UpdateGroupPermissionRequest, group.UpdateGroupPermissionRequest>(groupMessages.UpdateGroupPermissionRequest, 'agree'),
  GetGroupPermissionRequest: request<typeof idRequest, group.GetGroupPermissionRequest>(idRequest, 'agree'),
  DeleteGroupRequest: request<typeof idsRequest, group.DeleteGroupRequest>(idsRequest, 'agree'),
  CreateGroupRequest: request<typeof groupMessages.Group, group.Group>(groupMessages.Group, 'agree'),
  ListPermissionRequest: request<typeof permissionMessages.ListPermissionRequest, permission.ListPermissionRequest>(permissionMessages.ListPermissionRequest, 'agree'),
  GetPermissionRequest: request<typeof idRequest, permission.GetPermissionRequest>(idRequest, 'agree'),
  UpdatePermissionRequest: request<typeof permissionMessages.Permission, permission.Permission>(permissionMessages.Permission, 'agree'),
  ListConfigRequest: request<typeof configMessages.ListConfigRequest, config.ListConfigRequest>(configMessages.ListConfigRequest, 'agree'),
  UpdateConfigRequest: request<typeof configMessages.Configs, config.UpdateConfigRequest>(configMessages.Configs, 'agree'),
  ListNavigationRequest: request<typeof navigationMessages.ListNavigationRequest, navigation.ListNavigationRequest>(navigationMessages.ListNavigationRequest, 'agree'),
  GetNavigationRequest: request<typeof idRequest, navigation.GetNavigationRequest>(idRequest, 'agree'),
  DeleteNavigationRequest: request<typeof idsRequest, navigation.DeleteNavigationRequest>(idsRequest, 'agree'),
  SetNavigationRequest: request<typeof navigationMessages.Navigation, navigation.Navigation>(navigationMessages.Navigation, 'agree'),
  ListCategoryRequest: request<typeof categoryMessages.ListCategoryRequest, category.ListCategoryRequest>(categoryMessages.ListCategoryRequest, 'agree'),
  GetCategoryRequest: request<typeof idRequest, category.GetCategoryRequest>(idRequest, 'agree'),
  DeleteCategoryRequest: request<typeof idsRequest, category.DeleteCategoryRequest>(idsRequest, 'agree'),
  SetCategoryRequest: request<typeof categoryMessages.Category, category.Category>(categoryMessages.Category, 'agree'),
  ListBannerRequest: request<typeof bannerMessages.ListBannerRequest, banner.ListBannerRequest>(bannerMessages.ListBannerRequest, 'agree'),
  GetBannerRequest: request<typeof idRequest, banner.GetBannerRequest>(idRequest, 'agree'),
  DeleteBannerRequest: request<typeof idsRequest, banner.DeleteBannerRequest>(idsRequest, 'agree'),
  SetBannerRequest: request<typeof bannerMessages.Banner, banner.Banner>(bannerMessages.Banner, 'agree'),
  ListFriendlinkRequest: request<typeof friendlinkMessages.ListFriendlinkRequest, friendlink.ListFriendlinkRequest>(friendlinkMessages.ListFriendlinkRequest, 'agree'),
  GetFriendlinkRequest: request<typeof idRequest, friendlink.GetFriendlinkRequest>(idRequest, 'agree'),
  DeleteFriendlinkRequest: request<typeof idsRequest, friendlink.DeleteFriendlinkRequest>(idsRequest, 'agree'),
  SetFriendlinkRequest: request<typeof friendlinkMessages.Friendlink, friendlink.Friendlink>(friendlinkMessages.Friendlink, 'agree'),
  ListLanguageRequest: request<typeof languageMessages.ListLanguageRequest, language.ListLanguageRequest>(languageMessages.ListLanguageRequest, 'agree'),
  UpdateLanguageStatusRequest: request<typeof languageMessages.UpdateLanguageStatusRequest, language.UpdateLanguageStatusRequest>(languageMessages.UpdateLanguageStatusRequest, 'agree'),
  DeleteLanguageRequest: request<typeof idsRequest, language.DeleteLanguageRequest>(idsRequest, 'agree'),
  SetLanguageRequest: request<typeof languageMessages.Language, language.Language>(languageMessages.Language, 'agree'),
  CreatePunishmentRequest: request<typeof punishmentMessages.CreatePunishmentRequest, punishment.CreatePunishmentRequest>(punishmentMessages.CreatePunishmentRequest, 'agree'),
  ListPunishmentRequest: request<typeof punishmentMessages.ListPunishmentRequest, punishment.ListPunishmentRequest>(punishmentMessages.ListPunishmentRequest, 'agree'),
  GetPunishmentRequest: request<typeof idRequest, punishment.GetPunishmentRequest>(idRequest, 'agree'),
  CancelPunishmentRequest: request<typeof idsRequest, punishment.CancelPunishmentRequest>(idsRequest, 'agree'),
  UpdatePunishmentRequest: request<typeof punishmentMessages.Punishment, punishment.Punishment>(punishmentMessages.Punishment, 'agree'),
  AuthorizeRequest: request<typeof oauthMessages.AuthorizeRequest, oauth.OAuthAuthorizeRequest>(oauthMessages.AuthorizeRequest, 'agree'),
  OAuthLoginRequest: request<typeof oauthMessages.OAuthLoginRequest, oauth.OAuthLoginRequest>(oauthMessages.OAuthLoginRequest, 'agree'),
  ListAttachmentRequest: request<typeof attachmentMessages.ListAttachmentRequest, attachment.ListAttachmentRequest>(attachmentMessages.ListAttachmentRequest, 'agree'),
  GetAttachmentRequest: request<typeof idRequest, attachment.GetAttachmentRequest>(idRequest, 'agree'),
  DeleteAttachmentRequest: request<typeof idsRequest, attachment.DeleteAttachmentRequest>(idsRequest, 'agree'),
  UpdateAttachmentRequest: request<typeof attachmentMessages.Attachment, attachment.Attachment>(attachmentMessages.Attachment, 'agree'),
  ListSearchRecordRequest: request<typeof searchRecordMessages.ListSearchRecordRequest, document.ListSearchRecordRequest>(searchRecordMessages.ListSearchRecordRequest, 'agree'),
  DeleteSearchRecordRequest: request<typeof idsRequest, document.DeleteSearchRecordRequest>(idsRequest, 'agree'),
  SearchDocumentRequest: request<typeof documentSearchMessages.SearchDocumentRequest, document.SearchDocumentRequest>(documentSearchMessages.SearchDocumentRequest, 'agree'),
  CreateFavoriteRequest: request<typeof favoriteMessages.Favorite, document.CreateFavoriteRequest>(favoriteMessages.Favorite, 'agree'),
  GetFavoriteRequest: request<typeof favoriteMessages.GetFavoriteRequest, document.GetFavoriteRequest>(favoriteMessages.GetFavoriteRequest, 'agree'),
  ListFavoriteRequest: request<typeof favoriteMessages.ListFavoriteRequest, document.ListFavoriteRequest>(favoriteMessages.ListFavoriteRequest, 'agree'),
  DeleteFavoriteRequest: request<typeof idsRequest, document.DeleteFavoriteRequest>(idsRequest, 'agree'),
  ListDocumentRequest: request<typeof documentMessages.ListDocumentRequest, document.ListDocumentRequest>(documentMessages.ListDocumentRequest, 'agree'),
  ListDocumentForHomeRequest: request<typeof documentMessages.ListDocumentForHomeRequest, document.ListDocumentForHomeRequest>(documentMessages.ListDocumentForHomeRequest, 'agree'),
  CreateDocumentItem: request<typeof documentMessages.CreateDocumentItem, document.CreateDocumentItem>(documentMessages.CreateDocumentItem, 'agree'),
  CreateDocumentRequest: request<typeof documentMessages.CreateDocumentRequest, document.CreateDocumentRequest>(documentMessages.CreateDocumentRequest, 'agree'),
  GetDocumentRequest: request<typeof documentMessages.GetDocumentRequest, document.GetDocumentRequest>(documentMessages.GetDocumentRequest, 'agree'),
  ReadingPositionRequest: request<typeof documentMessages.ReadingPosition, document.ReadingPosition>(documentMessages.ReadingPosition, 'agree'),
  ListHotDocumentsRequest: request<typeof documentMessages.ListHotDocumentsRequest, document.ListHotDocumentsRequest>(documentMessages.ListHotDocumentsRequest, 'agree'),
  ListReadingHistoryRequest: request<typeof documentMessages.ListReadingHistoryRequest, document.ListReadingHistoryRequest>(documentMessages.ListReadingHistoryRequest, 'agree'),
  DeleteReadingHistoryRequest: request<typeof documentMessages.DeleteReadingHistoryRequest, document.DeleteReadingHistoryRequest>(documentMessages.DeleteReadingHistoryRequest, 'agree'),
  ListDocumentsForYouRequest: request<typeof documentMessages.ListDocumentsForYouRequest, document.ListDocumentsForYouRequest>(documentMessages.ListDocumentsForYouRequest, 'agree'),
  FindInDocumentRequest: request<typeof documentMessages.FindInDocumentRequest, document.FindInDocumentRequest>(documentMessages.FindInDocumentRequest, 'agree'),
  DeleteDocumentRequest: request<typeof documentMessages.DeleteDocumentRequest, document.DeleteDocumentRequest>(documentMessages.DeleteDocumentRequest, 'agree'),
  CheckDocumentRequest: request<typeof documentMessages.CheckDocumentRequest, document.CheckDocumentRequest>(documentMessages.CheckDocumentRequest, 'agree'),
  SetDocumentRecommendRequest: request<typeof documentMessages.SetDocumentRecommendRequest, document.SetDocumentRecommendRequest>(documentMessages.SetDocumentRecommendRequest, 'agree'),
  SetDocumentsCategoryRequest: request<typeof documentMessages.SetDocumentsCategoryRequest, document.SetDocumentsCategoryRequest>(documentMessages.SetDocumentsCategoryRequest, 'agree'),
  SetDocumentsLanguageRequest: request<typeof documentMessages.SetDocumentsLanguageRequest, document.SetDocumentsLanguageRequest>(documentMessages.SetDocumentsLanguageRequest, 'agree'),
  SetDocumentReconvertRequest: request<typeof documentMessages.SetDocumentReconvertRequest, document.SetDocumentReconvertRequest>(documentMessages.SetDocumentReconvertRequest, 'agree'),
  RecoverRecycleDocumentRequest: request<typeof documentMessages.RecoverRecycleDocumentRequest, document.RecoverRecycleDocumentRequest>(documentMessages.RecoverRecycleDocumentRequest, 'agree'),
  GetDocumentScoreRequest: request<typeof documentMessages.DocumentScore, document.GetDocumentScoreRequest>(documentMessages.DocumentScore, 'agree'),
  SetDocumentScoreRequest: request<typeof documentMessages.DocumentScore, document.SetDocumentScoreRequest>(documentMessages.DocumentScore, 'agree'),
  SetArticleRequest: request<typeof articleMessages.Article, article.Article>(articleMessages.Article, 'agree'),
  GetArticleRequest: request<typeof articleMessages.GetArticleRequest, article.GetArticleRequest>(articleMessages.GetArticleRequest, 'agree'),
  ListArticleRequest: request<typeof articleMessages.ListArticleRequest, article.ListArticleRequest>(articleMessages.ListArticleRequest, 'agree'),
  DeleteArticleRequest: request<typeof idsRequest, article.DeleteArticleRequest>(idsRequest, 'agree'),
  RestoreArticleRequest: request<typeof idsRequest, article.RestoreArticleRequest>(idsRequest, 'agree'),
  SetArticlesCategoryRequest: request<typeof articleMessages.SetArticlesCategoryRequest, article.SetArticlesCategoryRequest>(articleMessages.SetArticlesCategoryRequest, 'agree'),
  RecommendArticlesRequest: request<typeof articleMessages.RecommendArticlesRequest, article.RecommendArticlesRequest>(articleMessages.RecommendArticlesRequest, 'agree'),
  CheckArticlesRequest: request<typeof articleMessages.CheckArticlesRequest, article.CheckArticlesRequest>(articleMessages.CheckArticlesRequest, 'agree'),
  CreateCommentRequest: request<typeof commentMessages.CreateCommentRequest, comment.CreateCommentRequest>(commentMessages.CreateCommentRequest, 'agree'),
  ListCommentRequest: request<typeof commentMessages.ListCommentRequest, comment.ListCommentRequest>(commentMessages.ListCommentRequest, 'agree'),
  CheckCommentRequest: request<typeof commentMessages.CheckCommentRequest, comment.CheckCommentRequest>(commentMessages.CheckCommentRequest, 'agree'),
  GetCommentRequest: request<typeof idRequest, comment.GetCommentRequest>(idRequest, 'agree'),
  DeleteCommentRequest: request<typeof idsRequest, comment.DeleteCommentRequest>(idsRequest, 'agree'),
  UpdateCommentRequest: request<typeof commentMessages.Comment, comment.Comment>(commentMessages.Comment, 'agree'),
  SetReportRequest: request<typeof reportMessages.Report, report.Report>(reportMessages.Report, 'agree'),
  ListReportRequest: request<typeof reportMessages.ListReportRequest, report.ListReportRequest>(reportMessages.ListReportRequest, 'agree'),
  DeleteReportRequest: request<typeof idsRequest, report.DeleteReportRequest>(idsRequest, 'agree'),
  CreateFeedbackRequest: request<typeof feedbackMessages.CreateFeedbackRequest, feedback.CreateFeedbackRequest>(feedbackMessages.CreateFeedbackRequest, 'agree'),
  UpdateFeedbackRequest: request<typeof feedbackMessages.UpdateFeedbackRequest, feedback.UpdateFeedbackRequest>(feedbackMessages.UpdateFeedbackRequest, 'agree'),
  ListFeedbackRequest: request<typeof feedbackMessages.ListFeedbackRequest, feedback.ListFeedbackRequest>(feedbackMessages.ListFeedbackRequest, 'agree'),
  DeleteFeedbackRequest: request<typeof idsRequest, feedback.DeleteFeedbackRequest>(idsRequest, 'agree'),
  ListUserVipRequest: request<typeof vipMessages.ListUserVipRequest, vip.ListUserVipRequest>(vipMessages.ListUserVipRequest, 'agree'),
  GrantUserVipRequest: request<typeof vipMessages.GrantUserVipRequest, vip.GrantUserVipRequest>(vipMessages.GrantUserVipRequest, 'agree'),
  RevokeUserVipRequest: request<typeof vipMessages.RevokeUserVipRequest, vip.RevokeUserVipRequest>(vipMessages.RevokeUserVipRequest, 'agree'),
  ListUserVipLogRequest: request<typeof vipMessages.ListUserVipLogRequest, vip.ListUserVipLogRequest>(vipMessages.ListUserVipLogRequest, 'agree'),
  CreateOrderRequest: request<typeof orderMessages.CreateOrderRequest, order.CreateOrderRequest>(orderMessages.CreateOrderRequest, 'agree'),
  PayOrderRequest: request<typeof orderMessages.PayOrderRequest, order.PayOrderRequest>(orderMessages.PayOrderRequest, 'agree'),
  CancelOrderRequest: request<typeof orderMessages.CancelOrderRequest, order.CancelOrderRequest>(orderMessages.CancelOrderRequest, 'agree'),
  GetOrderRequest: request<typeof orderMessages.GetOrderRequest, order.GetOrderRequest>(orderMessages.GetOrderRequest, 'agree'),
  ListMyOrderRequest: request<typeof orderMessages.ListMyOrderRequest, order.ListMyOrderRequest>(orderMessages.ListMyOrderRequest, 'agree'),
  ListOrderRequest: request<typeof orderMessages.ListOrderRequest, order.ListOrderRequest>(orderMessages.ListOrderRequest, 'agree'),
  CloseOrderRequest: request<typeof orderMessages.CloseOrderRequest, order.CloseOrderRequest>(orderMessages.CloseOrderRequest, 'agree'),
  OrderDecisionRequest: request<typeof orderMessages.OrderDecisionRequest, order.OrderDecisionRequest>(orderMessages.OrderDecisionRequest, 'agree'),
  ListPaymentNotificationRequest: request<typeof paymentMessages.ListPaymentNotificationRequest, order.ListPaymentNotificationRequest>(paymentMessages.ListPaymentNotificationRequest, 'agree'),
  SendSmsCodeRequest: request<typeof userMessages.SendSmsCodeRequest, user.SendSmsCodeRequest>(userMessages.SendSmsCodeRequest, 'agree'),
  MobileRegisterRequest: request<typeof userMessages.MobileRegisterRequest, user.MobileRegisterRequest>(userMessages.MobileRegisterRequest, 'agree'),
  MobileLoginRequest: request<typeof userMessages.MobileLoginRequest, user.MobileLoginRequest>(userMessages.MobileLoginRequest, 'agree'),
  MobileLoginReply: reply<typeof userMessages.MobileLoginReply, user.MobileLoginReply>(userMessages.MobileLoginReply, 'agree'),
  MobileFindPasswordRequest: request<typeof userMessages.MobileFindPasswordRequest, user.MobileFindPasswordRequest>(userMessages.MobileFindPasswordRequest, 'agree'),
  BindMobileRequest: request<typeof userMessages.BindMobileRequest, user.BindMobileRequest>(userMessages.BindMobileRequest, 'agree'),
  ListSmsLogRequest: request<typeof smsMessages.ListSmsLogRequest, sms.ListSmsLogRequest>(smsMessages.ListSmsLogRequest, 'agree'),
  GetSmsStatsRequest: request<typeof smsMessages.GetSmsStatsRequest, sms.GetSmsStatsRequest>(smsMessages.GetSmsStatsRequest, 'agree'),
  SendTestSmsRequest: request<typeof smsMessages.SendTestSmsRequest, sms.SendTestSmsRequest>(smsMessages.SendTestSmsRequest, 'agree'),
  ListMessageRequest: request<typeof messageMessages.ListMessageRequest, messageTypes.ListMessageRequest>(messageMessages.ListMessageRequest, 'agree'),
  ReadMessageRequest: request<typeof messageMessages.ReadMessageRequest, messageTypes.ReadMessageRequest>(messageMessages.ReadMessageRequest, 'agree'),
};

const messageModules = {
  advertisement: advertisementMessages, article: articleMessages, attachment: attachmentMessages, banner: bannerMessages, category: categoryMessages, comment: commentMessages,
  config: configMessages, document: documentMessages, 'document-search': documentSearchMessages, download: downloadMessages,
  favorite: favoriteMessages, feedback: feedbackMessages, friendlink: friendlinkMessages, group: groupMessages, language: languageMessages,
  navigation: navigationMessages, oauth: oauthMessages, permission: permissionMessages, punishment: punishmentMessages,
  report: reportMessages, 'search-record': searchRecordMessages, sms: smsMessages, user: userMessages,
  vip: vipMessages, order: orderMessages, payment: paymentMessages, message: messageMessages,
};

describe('wire types of shared/ and the backend messages', () => {
  it('pair every message a module exports with its shared type', () => {
    const paired = new Set([...Object.keys(replies), ...Object.keys(requests)]);
    const unpaired = Object.entries(messageModules).flatMap(([module, exports]) => Object.entries(exports)
      .filter(([name, value]) => typeof value === 'object' && 'fields' in value && !paired.has(name))
      .map(([name]) => `${module}/messages.ts: ${name}`));
    expect(unpaired).toEqual([]);
  });
  // That each pair agrees is tsc's check (npm run typecheck): a disagreement does not compile.
});
