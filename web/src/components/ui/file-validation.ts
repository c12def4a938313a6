import { MSG } from '@shared/messages';

export interface FileRules {
  /** allowed extension without the dot, compared case-insensitively (spec §5) */
  extension: string;
  /** limits in bytes; spec §5 measures them in megabytes (bytes / 1,000,000) */
  minBytes?: number;
  maxBytes?: number;
}

/** The first rule a file breaks, as the spec's message, or null when it is fine. */
export function fileError(file: File, rules: FileRules): string | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot >= 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  if (extension !== rules.extension.toLowerCase()) return MSG.fileTypeNotSupported;
  const megabytes = file.size / 1_000_000;
  if (rules.maxBytes !== undefined && megabytes > rules.maxBytes / 1_000_000) return MSG.fileTooBig;
  if (rules.minBytes !== undefined && megabytes < rules.minBytes / 1_000_000) return MSG.fileTooSmall;
  return null;
}
