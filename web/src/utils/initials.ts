/**
 * Spec §1: the initials of the first two words of the name, or the first two letters of a single word.
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [first, second] = words;
  if (!first) return '?';
  const letters = second
    ? `${Array.from(first)[0]}${Array.from(second)[0]}`
    : Array.from(first).slice(0, 2).join('');
  return letters.toUpperCase();
}
