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

export class BadRequestError extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(400, message, extra);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(401, message, extra);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(403, message, extra);
  }
}
export class NotFoundError extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(404, message, extra);
  }
}
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
