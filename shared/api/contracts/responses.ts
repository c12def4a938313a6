import * as z from 'zod';
import { APPROVE_OUTCOMES } from './packages';

/**
 * What the routes answer on success (errors are `{ errorMessage, ... }`, see ERROR_BODY). Lists and
 * records travel as JSON text in one field (spec §3): such a field is a string here, described by what
 * its text holds. An answer carries exactly the fields listed (the handlers' return types are checked
 * against them); only error bodies may carry more.
 */
const jsonText = (holds: string) => z.string().meta({ description: `JSON text of ${holds}` });
const answer = <S extends z.ZodRawShape>(shape: S) => z.object(shape);

/** `{ status, message }`: the confirmation the SPA shows. */
const done = <S extends string>(status: S) => answer({ status: z.literal(status), message: z.string() });
const donePackage = <S extends string>(status: S) =>
  answer({ status: z.literal(status), message: z.string(), package: jsonText('the package') });

export const ERROR_BODY = z.looseObject({
  errorMessage: z.string().meta({ description: 'What went wrong, in words for the user' }),
  authError: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

export const tokenAnswer = answer({
  token: z.string(),
  user: jsonText('the user (PublicUser)'),
  mustChangePassword: z.literal(true).optional(),
});
export const authAnswer = answer({
  user: jsonText('the user (PublicUser)'),
  mustChangePassword: z.literal(true).optional(),
});
export const signedOut = answer({ status: z.literal('SIGNED_OUT') });
export const registered = answer({
  status: z.literal('REGISTERED'),
  message: z.string(),
  user: jsonText('the user (PublicUser)'),
});
export const passwordChanged = answer({
  status: z.literal('UPDATED'),
  message: z.string(),
  token: z.string(),
});
export const accountAnswer = answer({ user: jsonText('the user (PublicUser)') });
export const sent = done('SENT');
export const confirmed = answer({ status: z.literal('CONFIRMED'), message: z.string(), email: z.string() });
export const usersAnswer = answer({ users: jsonText('the users (PublicUser[])') });
export const deleted = done('DELETED');
export const rolesDecided = answer({
  status: z.literal('DECIDED'),
  message: z.string(),
  users: jsonText('the decided users (PublicUser[])'),
});

export const resourcesAnswer = answer({ resources: jsonText('the resources (Resource[])') });
export const resourceCreated = answer({ resource: jsonText('the resource (Resource)'), message: z.string() });
export const uploadTicket = answer({
  uploadId: z.string(),
  resourceUrl: z.string().meta({ description: 'presigned PUT URL of the resource file' }),
  metadataUrl: z.string().optional().meta({ description: 'presigned PUT URL of the metadata (models)' }),
  expiresAt: z.string(),
});

export const packageAnswer = answer({ package: jsonText('the package (Package)') });
export const packagesAnswer = answer({ packages: jsonText('the packages (Package[])') });
export const packagePage = answer({
  packages: jsonText('the packages (Package[])'),
  nextCursor: z.string().optional().meta({ description: 'pass back as `cursor` for the next page' }),
});
export const downloadAnswer = answer({
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string(),
  base64EncodedXMLPackage: z.string().optional(),
  downloadUrl: z.string().optional(),
});
export const historyAnswer = answer({
  history: jsonText('the audit events, oldest first'),
  chainIntact: z.boolean(),
  brokenAtSeq: z.number().nullable(),
});
export const headerAnswer = answer({ header: jsonText('the package header') });
export const approversAnswer = answer({
  approvers: jsonText('candidate approvers per role'),
  signers: jsonText('candidate signers').optional(),
});
export const notified = donePackage('NOTIFIED');
export const rejected = donePackage('REJECTED');

/** Approve (package or delivery), sign: the outcome, and what it brought. */
export const decisionAnswer = answer({
  outcome: z.enum([...APPROVE_OUTCOMES, 'SIGNED']),
  message: z.string().optional(),
  generatedXmlS3Link: z.string().optional(),
  mLifePath: z.string().optional(),
  package: jsonText('the package (Package)'),
});
export const signingKeyAnswer = answer({
  publicKeyPem: z.string(),
  keyId: z.string(),
  algorithm: z.string(),
});

export const dccListAnswer = answer({ dcc: jsonText('the DCCs (Dcc[])') });
export const dccCreated = answer({ dccUuid: z.string(), dcc: jsonText('the DCC (Dcc)') });

export const openApiDocument = z.looseObject({ openapi: z.string() });
