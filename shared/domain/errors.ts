/**
 * Typed errors thrown by rules and services. One middleware (lambdas/middleware/error-mapper.ts) turns
 * them into `{ errorMessage }` bodies with their status; anything else becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  /** extra fields for the response body, e.g. { authError } (spec §3) */
  readonly extra: Record<string, unknown>;
  constructor(statusCode: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.extra = extra;
  }
}

/** An AppError subclass answering `statusCode`, whose callers may add fields to the response body. */
function withStatus(statusCode: number) {
  return class extends AppError {
    constructor(message: string, extra?: Record<string, unknown>) {
      super(statusCode, message, extra);
    }
  };
}

export class BadRequestError extends withStatus(400) {}
export class UnauthorizedError extends withStatus(401) {}
export class ForbiddenError extends withStatus(403) {}
export class NotFoundError extends withStatus(404) {}
/** Content the server will not accept (the upload warning popup, spec §8). */
export class NotAcceptableError extends AppError {
  constructor(message: string) {
    super(406, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { retryAfterSeconds });
  }
}
export class NotImplementedError extends AppError {
  constructor(message: string) {
    super(501, message);
  }
}
/** A dependency (S3, SES, DynamoDB) failed; the message is safe to show, the cause is logged only. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
