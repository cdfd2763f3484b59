import { z } from 'zod';

/**
 * The JSON Schema of a tool's input as a VS Code manifest (`languageModelTools[].inputSchema`) or MCP wants
 * it: zod's input-side schema without the `$schema` dialect marker. Computed on call, never at import.
 */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
