/** Bytes exactly, and in KiB / MiB beside them: an engineer compares the exact number. */
export function formatFileSize(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes < 1024) return exact;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / (1024 * 1024), 'MiB'];
  return `${exact} (${value.toFixed(1)} ${unit})`;
}
