/** Byte-stable string order (UTF-16 code units), independent of locale: for listings that must not vary by machine. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
