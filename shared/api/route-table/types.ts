import type * as z from 'zod';
import type { AccessTokenScope } from '../../domain/access-tokens';
import type { Role } from '../../domain/roles';
import type { Stage } from '../contracts/resources';

/** The shape of a route table row (shared/api/routes.ts explains the fields). */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Access = 'public' | 'signedIn' | readonly Role[];

export type TableName = 'users' | 'resources' | 'packages' | 'dcc' | 'audit' | 'outbox';
export type BucketName = 'resources' | 'artefacts' | 'audit';

export interface RouteUses {
  tables: readonly TableName[];
  /**
   * The tables of `tables` the function changes; it only reads the others (tablesWritten in
   * shared/api/routes.ts). Absent: every listed table but `users`. Every guarded row lists `users` for its
   * gate (the token version is read there), so only the rows that change accounts name it here.
   */
  writes?: readonly TableName[];
  /**
   * read = GetObject, write = PutObject (multipart create, part, complete, abort), delete = DeleteObject,
   * parts = ListMultipartUploadParts (which parts of a multipart upload S3 holds); presign uses the same grants.
   */
  buckets?: Partial<Record<BucketName, readonly ('read' | 'write' | 'delete' | 'parts')[]>>;
  mail?: boolean;
  /**
   * 'RELEASE' / 'DEV' = kms:Sign (and its public key) on the key of that stage alone: the release key signs
   * release packages, the development key development ones (decision 295); 'publicKey' = kms:GetPublicKey
   * on both keys, nothing else.
   */
  sign?: Stage | 'publicKey';
  /** limits per client address: reads the origin-verify secret to trust CloudFront-Viewer-Address */
  clientSource?: boolean;
  /**
   * runs company sign-on (decision 315): reads the company identity provider's client secret (Secrets
   * Manager) and calls the provider
   */
  companyIdp?: true;
  /** asynchronous workers it invokes (lambda:InvokeFunction on those functions only; shared/api/workers.ts) */
  invoke?: readonly ('generateArtefact' | 'generateDevArtefact' | 'verifyUpload')[];
}

export interface Route {
  /** camelCase id; the handler module is lambdas/handlers/<kebab-case of id>.ts */
  id: string;
  method: HttpMethod;
  /** path under the `dev` stage, with {name} path parameters as API Gateway writes them */
  path: string;
  access: Access;
  uses: RouteUses;
  /**
   * a signed-in row open to an account whose role is not granted (unconfirmed, requested or refused): its
   * own identity and settings only. Every other signed-in row needs a granted role (deny by default,
   * decision 189).
   */
  ungranted?: true;
  /**
   * the access token scope that may call this row (decision 255); without it the row refuses
   * access tokens with 403 (deny by default: decisions, notifications, users and admin need a person)
   */
  tokenScope?: AccessTokenScope;
  /** Lambda memory in MB (CPU scales with it: scrypt and hashing routes get more) */
  memoryMb?: number;
  /** the issue that gives this row its behaviour; until then the handler answers 501 */
  summary: string;
}

/**
 * What one route takes (`<AREA>_CONTRACT` in shared/api/route-table/<area>.ts): what the middleware
 * validates the request with.
 */
export interface RouteRequest {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** multipart/form-data (uploads): no JSON parsing; the handler reads the raw body */
  multipart?: true;
  /** largest accepted JSON body in bytes (default 256 KiB) */
  maxBodyBytes?: number;
  /** success statuses (default 200) */
  statuses?: readonly number[];
  /**
   * the media type of a success answer that is not JSON (the PEM key): the handler's body is
   * the text itself, sent as it is with this Content-Type; the response schema is then a string
   */
  produces?: string;
}

/**
 * What one route takes and answers (shared/api/contract.ts joins the request part with the response
 * schema, `<AREA>_RESPONSES` of the same area file).
 */
export interface RouteContract extends RouteRequest {
  /** the body of a successful answer */
  response: z.ZodType;
}
