// The CLI's logger for the core: every note on stderr, prefixed with the command that wrote it (stdout is the
// command's output, or the MCP protocol on stdio).
import type { AgentSkillsLogger } from '../core/agentSkills';
import { printableLines } from './terminalText';

/** A logger writing `<prefix>: <message>` lines to stderr. */
export function stderrLogger(prefix: string): AgentSkillsLogger {
  const line = (m: string) => {
    // A note may quote what another party chose: a skill's folder, an MCP server's error message.
    process.stderr.write(`${prefix}: ${printableLines(m)}\n`);
  };
  return { info: line, warn: line, error: line };
}
