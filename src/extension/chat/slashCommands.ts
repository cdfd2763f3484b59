// `/list`, `/load <name>`, `/unload <name|all>`, `/validate`: answered from the core, no model involved.
import * as vscode from 'vscode';
import type { SkillRecord } from '../../core/registry/registryTypes';
import type { SkillsService } from '../skillsService';
import { sourceOf } from '../../core/sources';

/** Markdown link to a SKILL.md. */
function link(r: { name: string; location: string }): string {
  return `[${r.name}](${vscode.Uri.file(r.location).toString()})`;
}

function firstProblem(r: SkillRecord): string {
  const d = r.diagnostics.find((x) => x.severity === 'error') ?? r.diagnostics[0];
  return d ? d.message : 'no details';
}

/** Answers one slash command in `sessionId`. */
export async function answerSlashCommand(service: SkillsService, command: string, args: string, sessionId: string, stream: vscode.ChatResponseStream): Promise<void> {
  const { registry, runtime } = await service.ready();
  await runtime.openSession(sessionId);
  switch (command) {
    case 'list': {
      const active = new Set(runtime.sessions.get(sessionId)?.active_skills.map((a) => a.name) ?? []);
      const records = registry.all();
      if (!records.length) {
        stream.markdown('No skills found. Create one with **Agent Skills: Create Skill**, or put a folder with a SKILL.md in `.github/skills/`.');
        if (!vscode.workspace.isTrusted) stream.markdown('\n\nWorkspace skills are hidden while this workspace is not trusted.');
        return;
      }
      const lines = records.map((r) => {
        const state =
          r.status === 'ok' ? (active.has(r.name) ? ' — **active**' : '') : r.status === 'shadowed' ? ` — shadowed by ${r.shadowedBy}` : ` — ${r.status}: ${firstProblem(r)}`;
        return `- ${link(r)} (${sourceOf(r.scope).scopeWord})${state}: ${r.description || '(no description)'}`;
      });
      stream.markdown(`**Skills** (${registry.usable().length} usable):\n\n${lines.join('\n')}`);
      return;
    }
    case 'load': {
      const name = args.trim();
      if (!name) {
        stream.markdown('Give a skill name: `/load <name>`. `/list` shows them.');
        return;
      }
      stream.progress(`Loading ${name}…`);
      const r = await service.loadByUser(sessionId, name);
      if (r.ok) {
        const rec = registry.usable().find((x) => x.name === name);
        stream.markdown(`Loaded **${name}**; its instructions go with your next requests in this conversation.`);
        if (rec) stream.reference(vscode.Uri.file(rec.location));
      } else stream.markdown(`Could not load **${name}**: ${r.error.message}\n\n${r.error.hint}`);
      return;
    }
    case 'unload': {
      const what = args.trim();
      if (!what) {
        stream.markdown('Give a skill name or `all`: `/unload <name|all>`.');
        return;
      }
      const r = await service.unloadByUser(sessionId, what === 'all' ? 'all' : what.split(/[\s,]+/).filter(Boolean));
      stream.markdown(r.ok ? `Unloaded ${what === 'all' ? 'every skill' : `**${what}**`}.` : `Could not unload: ${r.error.message}\n\n${r.error.hint}`);
      return;
    }
    case 'validate': {
      await vscode.commands.executeCommand('agentSkills.validateAll');
      const records = registry.all();
      const problems = records.filter((r) => r.diagnostics.length);
      if (!problems.length) {
        stream.markdown(`All ${records.length} skill(s) are valid.`);
        return;
      }
      const lines = problems.map((r) => `- ${link(r)}: ${r.diagnostics.map((d) => `${d.severity} ${d.message}`).join('; ')}`);
      stream.markdown(`**${problems.length} of ${records.length} skill(s) have problems** (also in the Problems view):\n\n${lines.join('\n')}`);
      return;
    }
    default:
      stream.markdown(`Unknown command /${command}. Use /list, /load, /unload or /validate.`);
  }
}
