/** A plausible email address: something@something.tld, no spaces (the server checks it properly). */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
