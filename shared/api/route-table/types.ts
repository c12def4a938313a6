import type { Role } from '../../domain/roles';

/** The shape of a route table row (shared/api/routes.ts explains the fields). */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Access = 'public' | 'signedIn' | readonly Role[];

export type TableName = 'users' | 'resources' | 'packages' | 'dcc' | 'audit' | 'outbox';
export type BucketName = 'resources' | 'artefacts' | 'audit';

export interface RouteUses {
  tables: readonly TableName[];
  /** read = GetObject, write = PutObject, delete = DeleteObject; presign uses the same grants. */
  buckets?: Partial<Record<BucketName, readonly ('read' | 'write' | 'delete')[]>>;
  mail?: boolean;
  /** 'sign' = kms:Sign on the package key (and its public key); 'publicKey' = kms:GetPublicKey only. */
  sign?: 'sign' | 'publicKey';
  /** limits per client address: reads the origin-verify secret to trust CloudFront-Viewer-Address */
  clientSource?: boolean;
}

export interface Route {
  /** camelCase id; the handler module is lambdas/handlers/<kebab-case of id>.ts */
  id: string;
  method: HttpMethod;
  /** path under the `dev` stage, with {name} path parameters as API Gateway writes them */
  path: string;
  access: Access;
  uses: RouteUses;
  /** Lambda memory in MB (CPU scales with it: scrypt and hashing routes get more) */
  memoryMb?: number;
  /** the issue that gives this row its behaviour; until then the handler answers 501 */
  summary: string;
}
