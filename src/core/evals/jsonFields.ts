// The shape of one field in a table of JSON fields (a trigger request's, an eval case's): its JSON type, whether it
// must be there, its fixed values and what it means. The checks, completion and hover all read the same table.

/** A JSON type a field may have (`array` fields hold strings: `items`). */
export type JsonFieldType = 'string' | 'boolean' | 'number' | 'array';

export interface JsonField {
  type: JsonFieldType;
  required: boolean;
  /** Allowed values, when the field has a fixed set. */
  values?: readonly string[];
  /** What an `array` field holds. */
  items?: 'string' | 'object';
  doc: string;
}

/** The type as a message or hover says it: `string`, `boolean`, `array of strings`. */
export function fieldTypeText(field: JsonField): string {
  return field.type === 'array' && field.items ? `array of ${field.items}s` : field.type;
}

/** How to write a value of the field, for an error message: `a boolean (true or false, without quotes)`. */
export function fieldTypeHint(field: JsonField): string {
  const article = field.type === 'array' ? 'an' : 'a';
  if (field.values) return `${article} ${field.type} (${field.values.map((v) => `"${v}"`).join(' or ')})`;
  if (field.type === 'boolean') return 'a boolean (true or false, without quotes)';
  if (field.type === 'array') return `an array of ${field.items ?? 'value'}s, e.g. [${field.items === 'string' ? '"..."' : field.items === 'object' ? '{ ... }' : ''}]`;
  return `${article} ${field.type}`;
}

/** The snippet that completion inserts as the field's value. */
export function fieldValueSnippet(field: JsonField): string {
  if (field.type === 'boolean') return '${1|true,false|}';
  if (field.values) return `"\${1|${field.values.join(',')}|}"`;
  if (field.type === 'number') return '${1:1}';
  if (field.type === 'array') return field.items === 'string' ? '["$1"]' : field.items === 'object' ? '[\n\t{ $1 }\n]' : '[$1]';
  return '"$1"';
}

/** How a JSON node's type reads in a message: `null`, `a string`, `an object`, `an array`. */
export function jsonTypeText(type: string): string {
  return type === 'null' ? 'null' : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Whether `name` is a key of `table` (own keys only: `constructor` is not a field). */
export function isFieldOf<K extends string>(table: Record<K, JsonField>, name: string): name is K {
  return Object.prototype.hasOwnProperty.call(table, name);
}
