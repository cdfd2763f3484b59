import type { FrontmatterField, Range } from '../skillTypes';

/** The first field with `key` (a handful of fields: a scan is cheaper than building a map). */
export function firstField(fields: readonly FrontmatterField[], key: string): FrontmatterField | undefined {
  for (const f of fields) if (f.key === key) return f;
  return undefined;
}

/** The value's range, or the key's when the value is missing. */
export function rangeOfValue(f: FrontmatterField): Range {
  const v = f.valueRange;
  return v.start.line === v.end.line && v.start.character === v.end.character ? f.keyRange : v;
}

/** `true`/`false` as a host reads a boolean field, with whether it was quoted; undefined when it is neither. */
export function booleanValue(f: FrontmatterField | undefined): { value: boolean; quoted: boolean } | undefined {
  if (!f || f.kind !== 'scalar' || typeof f.value !== 'string') return undefined;
  const v = f.value.trim().toLowerCase();
  if (v !== 'true' && v !== 'false') return undefined;
  return { value: v === 'true', quoted: f.style === 'single' || f.style === 'double' };
}

/** `12345` -> `12,345` (without Intl, which is slow to call on a hot path). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
