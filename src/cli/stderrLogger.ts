// The CLI's logger for the core: every note on stderr, prefixed with the command that wrote it (stdout is the
// command's output, or the MCP protocol on stdio).
import type { AgentSkillsLogger } from '../core/agentSkills';

/** A logger writing `<prefix>: <message>` lines to stderr. */
export function stderrLogger(prefix: string): AgentSkillsLogger {
  const line = (m: string) => {
    process.stderr.write(`${prefix}: ${m}\n`);
  };
  return { info: line, warn: line, error: line };
}
