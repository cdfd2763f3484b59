// Small readers of a tool's raw input for the wording of its calls (the input is not parsed yet when a call is shown).

/** The input's field as text, or '' when it is not a string. */
export const inputText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A list field joined with commas, or ''. */
export const inputList = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : '');
