// The one formatter of zod failures on tool input: every tool and surface names bad fields the same way.
import type { ZodError } from 'zod';
import { ToolError } from './toolError';

/** One line per problem: `field.path: what is wrong` (`(input)` for the object itself). */
export function zodProblems(error: ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
}

/** A zod failure on `tool`'s input as the error naming each bad field. */
export function inputError(tool: string, error: ZodError): ToolError {
  const problems = zodProblems(error);
  return new ToolError(
    'invalid_input',
    `Invalid input for ${tool}: ${problems.join('; ')}`,
    `Fix the named field(s) and call ${tool} again; see the tool's input schema for allowed fields.`,
    { problems },
  );
}
