// The one check of "a JSON object" (not null, not an array) for what MCP messages carry: params, _meta, answers.

/** True for a plain JSON object: not null and not an array. */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
