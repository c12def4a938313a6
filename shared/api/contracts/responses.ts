import * as z from 'zod';

/**
 * Helpers for what the routes answer on success (each area's answers are in its file,
 * shared/api/route-table/<area>.ts, beside its rows). Lists and records travel as JSON text in one field
 * (spec §3): such a field is a string here, described by what its text holds. An answer carries exactly the fields
 * listed (the handlers' return types are checked against them); only error bodies may carry more.
 */
export const jsonText = (holds: string) => z.string().meta({ description: `JSON text of ${holds}` });
export const answer = <S extends z.ZodRawShape>(shape: S) => z.object(shape);

/** `{ status, message }`: the confirmation the SPA shows. */
export const done = <S extends string>(status: S) =>
  answer({ status: z.literal(status), message: z.string() });
/** `{ status, message, package }`: a package step confirmed, with the package as it is now. */
export const donePackage = <S extends string>(status: S) =>
  answer({ status: z.literal(status), message: z.string(), package: jsonText('the package (Package)') });
