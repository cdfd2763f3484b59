import type { Range } from 'vscode-languageserver';
import type { RuleConfig, SkillDiagnostic, ValidationMode } from '../src/core/skill';
import { configuredLevel } from '../src/core/skill/applyMode';
import { rangeOfValue } from '../src/core/skill/rules/fieldAccess';
import { confusableMessage, findConfusableSkills, type CatalogEntry } from '../src/core/skill/rules/confusableSkills';
import type { SkillAnalysis } from './skillAnalysis';

const RULE = 'skills-confusable';

/**
 * The catalog rule across the workspace's skills (`skills-confusable`): the server keeps each validated
 * SKILL.md's name and description here; after each validation the pairs are found again over all of them, and
 * the skills whose findings changed (the partner of a new or resolved pair) are told to publish again.
 */
export class ConfusableCatalog {
  private readonly entries = new Map<string, { entry: CatalogEntry; range: Range; path: string }>();
  private findings = new Map<string, SkillDiagnostic[]>();
  /** False when an entry, the mode or the configuration changed since the last refresh. */
  private fresh = false;
  private lastSettings: [ValidationMode, RuleConfig] | undefined;

  /** Records the skill's name and description from its latest analysis (a skill without a description leaves). */
  update(a: SkillAnalysis): void {
    const field = a.parsed.fields.find((f) => f.key === 'description');
    const description = a.parsed.properties.description;
    const name = typeof a.parsed.properties.name === 'string' ? a.parsed.properties.name : (a.folderName ?? a.uri);
    const before = this.entries.get(a.uri);
    if (field && typeof description === 'string') {
      const range = rangeOfValue(field);
      // Most validations change the body, not the name or description: the pairs stay as they were.
      if (before && before.entry.name === name && before.entry.description === description && JSON.stringify(before.range) === JSON.stringify(range)) return;
      this.entries.set(a.uri, { entry: { key: a.uri, name, description }, range, path: a.filePath ?? a.uri });
    } else if (before) this.entries.delete(a.uri);
    else return;
    this.fresh = false;
  }

  remove(uri: string): void {
    if (this.entries.delete(uri)) this.fresh = false;
  }

  /**
   * Finds the pairs again under `mode` and `config`; returns the skills (other than `except`) whose findings
   * changed, to be published again.
   */
  refresh(mode: ValidationMode, config: RuleConfig, except?: string): string[] {
    if (this.fresh && this.lastSettings?.[0] === mode && this.lastSettings[1] === config) return [];
    this.fresh = true;
    this.lastSettings = [mode, config];
    const level = configuredLevel(RULE, mode, config);
    const next = new Map<string, SkillDiagnostic[]>();
    if (level !== 'off' && this.entries.size >= 2) {
      for (const p of findConfusableSkills([...this.entries.values()].map((e) => e.entry))) {
        for (const [self, other, mine, theirs] of [
          [p.a, p.b, p.onlyA, p.onlyB],
          [p.b, p.a, p.onlyB, p.onlyA],
        ] as const) {
          const at = this.entries.get(self.key);
          const where = this.entries.get(other.key)?.path ?? other.key;
          if (!at) continue;
          const list = next.get(self.key) ?? [];
          list.push({ rule: RULE, severity: level, message: confusableMessage(self, other, p.closeness, mine, theirs, where), range: at.range });
          next.set(self.key, list);
        }
      }
    }
    const changed: string[] = [];
    for (const uri of new Set([...this.findings.keys(), ...next.keys()])) {
      if (uri === except) continue;
      const before = (this.findings.get(uri) ?? []).map((d) => d.message).join('\n');
      const after = (next.get(uri) ?? []).map((d) => d.message).join('\n');
      if (before !== after) changed.push(uri);
    }
    this.findings = next;
    return changed;
  }

  /** The skill's catalog findings as of the last {@link refresh}. */
  findingsOf(uri: string): SkillDiagnostic[] {
    return this.findings.get(uri) ?? [];
  }
}
