// The one error type of the gateway and the JSON shape it is sent as (docs/moredoc.md §5:
// `code` is the HTTP status, `message` and `error` carry the same Chinese text).

import { STATUS_MESSAGES } from '../shared/api-failure';

export interface ErrorBody {
  code: number;
  message: string;
  error: string;
}

export const MESSAGES = {
  badRequest: STATUS_MESSAGES[400],
  forbidden: '禁止访问',
  notFound: STATUS_MESSAGES[404],
  forbiddenCsrf: '请求来源校验失败，请刷新页面后重试',
  forbiddenCrossSiteRead:
    '请求来源校验失败：下载须在本站的文档页面点击“下载”按钮发起，不能从其他网站、书签或地址栏直接打开',
  tooManyRequests: STATUS_MESSAGES[429],
  notJson: '请求内容必须是 JSON 格式（Content-Type: application/json）',
  notMultipart: '上传的内容必须是 multipart/form-data 格式（Content-Type: multipart/form-data，字段 file）',
  internal: STATUS_MESSAGES[500],
  badGateway: '后端服务暂时不可用，请稍后再试',
  gatewayTimeout: '后端服务响应超时，请稍后再试',
  bodyTimeout: '请求内容接收超时，请检查网络后重试',
  notReady: '后端服务未就绪',
  tokenTooLarge: '登录凭证过长，无法保存，请联系管理员',
  headersTooLarge: '请求头过大（网址或 Cookie 过长），无法处理。请缩短网址，或清除本站的 Cookie 后重试',
  malformedRequest: '请求格式不正确，无法处理',
  unreadableAddress: '网址格式不正确（含有无法识别的 % 编码），无法打开。请检查网址是否完整，或从本站的链接打开',
  unencodedAddress:
    '网址中含有未经编码的文字（如汉字），无法识别。请从本站的链接打开，或将网址中的文字进行 URL 编码后再访问',
} as const;

export class GatewayError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GatewayError';
  }
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { code: statusCode, message, error: message };
}
