import type { SessionEnd } from '../../shared/session-end';

// The one error type of the backend and its gRPC code → HTTP status mapping
// (docs/moredoc.md §5). Routes throw ApiError; the error handler renders it.

export const Code = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;
export type GrpcCode = (typeof Code)[keyof typeof Code];

const HTTP_STATUS: Record<GrpcCode, number> = {
  0: 200,
  1: 408,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

export function httpStatusFromCode(code: GrpcCode): number {
  return HTTP_STATUS[code];
}

/** gRPC code for an HTTP status produced outside our routes (framework errors). */
export function codeFromHttpStatus(status: number): GrpcCode {
  switch (status) {
    case 400:
    case 415:
      return Code.InvalidArgument;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.NotFound;
    case 406:
      return Code.InvalidArgument;
    case 408:
      return Code.Canceled;
    case 409:
      return Code.AlreadyExists;
    case 413:
    case 429:
      return Code.ResourceExhausted;
    case 501:
      return Code.Unimplemented;
    case 503:
      return Code.Unavailable;
    case 504:
      return Code.DeadlineExceeded;
    default:
      return status >= 500 ? Code.Internal : Code.InvalidArgument;
  }
}

export class ApiError extends Error {
  override name = 'ApiError';
  /** A 401's: why the token sent opened no session, said in SESSION_END_HEADER (decision 079). */
  sessionEnded?: SessionEnd;
  /** `httpStatus` overrides the code's usual status (only 502, see badGateway). */
  constructor(
    readonly code: GrpcCode,
    message: string,
    private readonly httpStatus?: number,
  ) {
    super(message);
  }
  get status(): number {
    return this.httpStatus ?? httpStatusFromCode(this.code);
  }
}

const NOT_LOGGED_IN = '您未登录或您的登录已过期，请重新登录或刷新页面重试';

export const badRequest = (message: string) => new ApiError(Code.InvalidArgument, message);
export const notFound = (message: string) => new ApiError(Code.NotFound, message);
export const conflict = (message: string) => new ApiError(Code.AlreadyExists, message);
export const forbidden = (message: string) => new ApiError(Code.PermissionDenied, message);
export const unauthenticated = (message = NOT_LOGGED_IN) => new ApiError(Code.Unauthenticated, message);
/** The 401 of a caller whose token opened no session, saying why when it knows (decision 079). */
export function sessionRefused(ended: SessionEnd | undefined): ApiError {
  const error = unauthenticated();
  if (ended) error.sessionEnded = ended;
  return error;
}
export const unavailable = (message: string) => new ApiError(Code.Unavailable, message);
/** The blob store (the S3 bucket) did not answer: BlobStoreUnavailableError's message, and /readyz's. */
export const BLOB_STORE_UNAVAILABLE = '文件存储暂时不可用，请稍后再试';
/** Too many requests of one kind in a while: 429, code 8. */
export const tooManyRequests = (message: string) => new ApiError(Code.ResourceExhausted, message);
/** A third party we called (an OAuth provider) failed or answered nonsense: 502, code 14. */
export const badGateway = (message: string) => new ApiError(Code.Unavailable, message, 502);
export const deadlineExceeded = (message: string) => new ApiError(Code.DeadlineExceeded, message);
