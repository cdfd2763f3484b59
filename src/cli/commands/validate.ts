import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { NOT_FULLY_CHECKED_RULE } from '../../core/skill/readSkillDir';
import { applySafeFixes, EMPTY_CONFIG, AGENT_IDS, isExcluded, isAgentId, loadConfigFile, loadConfigFor, asyncLocalDisk, validateSkillDir, type AgentId, type LoadedConfig } from '../../core/skill';
import { writeFileAtomic } from '../../core/edit/atomicWrite';
import type { CliCommand } from '../cliCommand';
import { looksLikePlugin } from '../../core/plugins/readPlugin';
import { validatePlugin, type PluginValidation } from '../../core/plugins/validatePlugin';
import { resolveAllTargets, type SkillTarget } from '../skillTargets';
import { printable } from '../terminalText';
import { confusableMessage, findConfusableSkills, type CatalogEntry } from '../../core/skill/rules/confusableSkills';
import { rangeOfValue } from '../../core/skill/rules/fieldAccess';
import { ruleLevel } from '../../core/skill/rules';
import { UsageError } from '../usageError';
import { cliVersion } from '../version';
import { formatGithub, formatHuman, formatSarif, outputFormat, type ValidateResult } from './validateFormats';

const CONFUSABLE_RULE = 'skills-confusable';

/**
 * `agent-skills validate <path>... [--strict] [--format text|json|sarif|github] [--fix] [--config <file>]`.
 * Human output follows the reference CLI (`Valid skill: <path>`, or `Validation failed for <path>:` and
 * `  - <message>` lines on stderr); warnings and notes follow as `  warning: …` / `  info: …` lines.
 */
export const validateCommand: CliCommand = {
  name: 'validate',
  usage: 'validate <path>... [--strict] [--host any|claude-code|codex|vscode|copilot-cli|agentskills] [--format text|json|sarif|github] [--json] [--fix] [--config <file>]',
  summary:
    'Validate skill folders, SKILL.md files or folders of skills (exit 1 if any is invalid). --strict: exactly the agentskills.io reference rules. --host: lint for one host (its fields, tools, variables and files); default any host. --fix applies the safe fixes. Rules are configured in the nearest .agent-skills.yaml, or --config.',
  help: {
    options: [['<path>...', 'Skill folders, SKILL.md files, folders of skills, or Agent Plugin folders.'], ['--strict', 'Exactly the agentskills.io reference rules (fails fields only some hosts define); default is lenient: what hosts load is valid.'], ['--host any|claude-code|codex|vscode|copilot-cli|agentskills', 'Lint for one host: the fields, tools, variables and files it knows (default any: accepts what any host accepts, warns about what breaks everywhere or is not portable).'], ['--format text|json|sarif|github', 'Output: text (default), JSON, SARIF 2.1.0, or GitHub Actions workflow commands.'], ['--json', 'Same as --format json.'], ['--fix', 'Apply the safe fixes to SKILL.md (atomic write), then validate.'], ['--config <file>', 'Rule configuration to use instead of the nearest .agent-skills.yaml.']],
    exitCodes: [[0, 'every skill is valid (warnings do not count)'], [1, 'at least one skill or plugin is invalid']],
  },
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        options: {
          strict: { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
          format: { type: 'string' },
          fix: { type: 'boolean', default: false },
          config: { type: 'string' },
          host: { type: 'string' },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length === 0) throw new UsageError('give at least one skill folder, SKILL.md file, or folder of skills.');
    const format = outputFormat(values);
    const mode = values.strict ? 'strict' : 'lenient';
    if (values.host !== undefined && !isAgentId(values.host)) throw new UsageError(`--host must be one of ${AGENT_IDS.join(', ')}, not '${values.host}'.`);
    const agentOverride: AgentId | undefined = values.host as AgentId | undefined;
    let explicit: LoadedConfig | undefined;
    if (values.config !== undefined) {
      explicit = await loadConfigFile(path.resolve(values.config), asyncLocalDisk);
      if (explicit.problems.length && Object.keys(explicit.config.rules).length === 0 && explicit.exclude.length === 0) {
        throw new UsageError(explicit.problems.join('\n'));
      }
    }
    const reported = new Set<string>();
    const results: ValidateResult[] = [];
    const fixes: string[] = [];
    const catalog: CatalogMember[] = [];
    for (const arg of positionals) {
      const notSkillFile = await fileButNotSkillMd(arg);
      if (notSkillFile) {
        results.push(notSkillFile);
        continue;
      }
      // An Agent Plugin folder: its plugin.json, mcp.json and skills/ first, then each of its skills.
      const plugin = looksLikePlugin(path.resolve(arg)) ? validatePlugin(path.resolve(arg)) : undefined;
      if (plugin) results.push(pluginResult(arg, plugin));
      const targets = plugin ? plugin.skillDirs.map((dir) => ({ dir, display: path.join(arg, path.relative(plugin.plugin.root, dir)) })) : await resolveAllTargets([arg]);
      for (const t of targets) {
        const found = explicit ?? (await loadConfigFor(t.dir, asyncLocalDisk).catch(() => EMPTY_CONFIG));
        // --host is laid over the configuration's `host:`.
        const loaded = agentOverride ? { ...found, config: { ...found.config, host: agentOverride } } : found;
        for (const p of loaded.problems) {
          if (reported.has(p)) continue;
          reported.add(p);
          process.stderr.write(`warning: ${printable(p)}\n`);
        }
        if (isExcluded(loaded, t.dir)) continue;
        if (values.fix) fixes.push(...(await fixSkill(t, mode, loaded)));
        const { result, entry } = await validateTarget(t, mode, loaded);
        results.push(result);
        if (entry) catalog.push({ result, ...entry });
      }
    }
    addConfusable(catalog, mode);
    const cwd = process.cwd();
    if (format === 'json') process.stdout.write(`${JSON.stringify(results.map(({ dir: _dir, fileName: _f, ...r }) => r), null, 2)}\n`);
    else if (format === 'sarif') process.stdout.write(`${JSON.stringify(formatSarif(results, cwd, cliVersion()), null, 2)}\n`);
    else if (format === 'github') process.stdout.write(formatGithub(results, cwd));
    else {
      for (const r of results) (r.valid ? process.stdout : process.stderr).write(formatHuman(r));
      if (results.length > 1) {
        const bad = results.filter((r) => !r.valid).length;
        const plugins = results.filter((r) => r.kind === 'plugin').length;
        const what = plugins ? `${plugins} plugin(s) and ${results.length - plugins} skill(s)` : `${results.length} skills`;
        process.stdout.write(`Checked ${what} (${mode}): ${results.length - bad} valid, ${bad} invalid.\n`);
      }
    }
    // Fix reports go to stderr in machine formats, so stdout stays one document.
    for (const f of fixes) (format === 'text' ? process.stdout : process.stderr).write(`${f}\n`);
    return results.every((r) => r.valid) ? 0 : 1;
  },
};

/** The plugin's own findings as one result (files relative to the plugin folder); invalid when any is an error. */
function pluginResult(arg: string, v: PluginValidation): ValidateResult {
  return {
    path: arg,
    dir: v.plugin.root,
    fileName: v.plugin.manifestFile ? path.relative(v.plugin.root, v.plugin.manifestFile) : 'plugin.json',
    name: v.plugin.manifest?.name ?? path.basename(v.plugin.root),
    kind: 'plugin',
    valid: !v.findings.some((f) => f.severity === 'error'),
    diagnostics: v.findings.map((f) => ({ rule: f.rule, severity: f.severity, message: f.message, range: f.range, file: path.relative(v.plugin.root, f.file) || '.' })),
  };
}

/** A validated skill as the catalog rules read it, with where its description is. */
interface CatalogMember {
  result: ValidateResult;
  entry: CatalogEntry;
  range: ValidateResult['diagnostics'][number]['range'];
}

async function validateTarget(t: SkillTarget, mode: 'strict' | 'lenient', loaded: LoadedConfig): Promise<{ result: ValidateResult; entry?: Omit<CatalogMember, 'result'> }> {
  const v = await validateSkillDir(t.dir, { mode, config: loaded.config });
  const result: ValidateResult = {
    path: t.display,
    dir: t.dir,
    fileName: v.read.fileName,
    name: v.name,
    valid: v.valid,
    diagnostics: v.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, message: d.message, range: d.range, ...(d.file ? { file: d.file } : {}) })),
  };
  const field = v.read.parsed?.fields.find((f) => f.key === 'description');
  const description = v.read.parsed?.properties.description;
  if (!field || typeof description !== 'string') return { result };
  return { result, entry: { entry: { key: t.dir, name: v.name, description }, range: rangeOfValue(field) } };
}

/** The catalog rule across every skill validated in this run: a confusable pair is reported on both skills. */
function addConfusable(catalog: readonly CatalogMember[], mode: 'strict' | 'lenient'): void {
  const level = ruleLevel(CONFUSABLE_RULE, mode);
  if (level === 'off' || catalog.length < 2) return;
  const byKey = new Map(catalog.map((c) => [c.entry.key, c]));
  for (const p of findConfusableSkills(catalog.map((c) => c.entry))) {
    for (const [self, other, mine, theirs] of [
      [p.a, p.b, p.onlyA, p.onlyB],
      [p.b, p.a, p.onlyB, p.onlyA],
    ] as const) {
      const member = byKey.get(self.key) as CatalogMember;
      const where = (byKey.get(other.key) as CatalogMember).result.path;
      member.result.diagnostics.push({ rule: CONFUSABLE_RULE, severity: level, message: confusableMessage(self, other, p.closeness, mine, theirs, where), range: member.range });
    }
  }
}

/** Applies the safe fixes to the skill's SKILL.md (written via temp + rename), repeating while they change it. */
async function fixSkill(t: SkillTarget, mode: 'strict' | 'lenient', loaded: LoadedConfig): Promise<string[]> {
  const out: string[] = [];
  for (let round = 0; round < 5; round++) {
    const v = await validateSkillDir(t.dir, { mode, config: loaded.config });
    if (!v.read.file || !v.read.parsed) return out;
    // Findings of a file validated only in part would place "at the end" fixes at the cut: none are applied.
    if (v.diagnostics.some((d) => d.rule === NOT_FULLY_CHECKED_RULE)) return [`Not fixed ${path.join(t.display, v.read.fileName ?? 'SKILL.md')}: it is too long to be checked whole.`];
    const r = applySafeFixes(v.read.parsed.text, v.diagnostics);
    if (r.applied.length === 0 || r.text === v.read.parsed.text) return out;
    await writeFileAtomic(v.read.file, r.text);
    for (const a of r.applied) out.push(`Fixed ${path.join(t.display, v.read.fileName ?? 'SKILL.md')}:${a.line} [${a.rule}]: ${a.title}`);
  }
  return out;
}

/** The reference CLI fails (exit 1) on a path that is a file other than SKILL.md; so does this one. */
async function fileButNotSkillMd(arg: string): Promise<ValidateResult | undefined> {
  const abs = path.resolve(arg);
  const st = await fsp.stat(abs).catch(() => undefined);
  if (!st?.isFile() || path.basename(abs).toLowerCase() === 'skill.md') return undefined;
  return {
    path: arg,
    dir: path.dirname(abs),
    name: '',
    valid: false,
    diagnostics: [
      {
        rule: 'skill-file-missing',
        severity: 'error',
        message: `Path is not a directory: ${arg}. Give a skill folder, its SKILL.md, or a folder of skills.`,
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      },
    ],
  };
}
