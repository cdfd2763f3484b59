// What this window assembles the core from: its host, and the runner and runtime options its settings give, with the
// trust gate in front of the script runner and the catalog (once open) as the runtime's source of skills. The one
// createAgentSkills call of the window is in windowCore.ts.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSkillsRuntimeConfig } from '../../core/agentSkills';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { createNodeHost } from '../../core/host/nodeHost';
import type { PluginContributions } from '../../core/registry/pluginContributions';
import type { SkillIndex } from '../../core/registry/skillRegistry';
import type { SkillRoot } from '../../core/registry/registryTypes';
import { lateSource } from '../../core/runtime/lateSource';
import { skillSourceOf } from '../../core/runtime/registrySource';
import type { SkillSource } from '../../core/runtime/runtimeTypes';
import { extensionSkills, mcpServers, skillPacks, type PackMountHook } from '../../core/sourceReaders';
import type { PackSpec } from '../../core/catalog/catalogTypes';
import { runtimeToolNames } from '../../core/tools/toolNames';
import type { McpSkillServers } from '../mcpSkillServers';
import { readValidationRules, type RuntimeSettings } from '../settings';
import { surfacePromptOptions } from '../surfaceWhen';
import { trustGate } from './trustGate';

/** The window's skill catalog as the service sees it (see WindowCatalog): the runtime serves its newest revisions. */
export interface CatalogProvider {
  /** The catalog opened last, if any. */
  current(): SkillCatalog | undefined;
  /** Opens the catalog (over this service's registry) if needed. */
  ready(): Promise<SkillCatalog>;
}

/**
 * What the window's one core is assembled from: the local disk (the Node host answers synchronously), the skills
 * other extensions contribute (in roots of skills contributed one by one, chatSkills, only those folders show),
 * the connected MCP servers' skills (refused to run, as in every core) and the packs of the settings. Its roots
 * are set at the first scan.
 */
export function windowCoreInit(o: { stateDir: string; plugins: () => PluginContributions; mcp: McpSkillServers; packs: () => readonly PackSpec[]; mountPack: PackMountHook }) {
  const roots: SkillRoot[] = [];
  return {
    roots,
    stateDir: o.stateDir,
    host: createNodeHost(),
    ruleOverrides: readValidationRules,
    sources: [extensionSkills(() => o.plugins().only), mcpServers(() => o.mcp.connected()), skillPacks(o.packs, { mount: o.mountPack })],
  };
}

/**
 * What the runtime loads and reads from: the catalog once it is open (edited plugin and pack skills at their
 * newest revision, archived ones hidden), the registry before.
 */
function runtimeSource(registry: SkillIndex, catalog: () => CatalogProvider | undefined): SkillSource {
  const fallback = skillSourceOf(registry);
  let cached: { catalog: SkillCatalog; source: SkillSource } | undefined;
  const pick = (): SkillSource => {
    const current = catalog()?.current();
    if (!current) return fallback;
    if (cached?.catalog !== current) cached = { catalog: current, source: current.skillSource() };
    return cached.source;
  };
  return lateSource(pick);
}

/** The runner and runtime options of the window's settings (the core rebuilds them when they change). */
export function windowRuntimeConfig(o: { registry: SkillIndex; settings: RuntimeSettings; stateDir: string; workspaceDir: string | undefined; catalog: () => CatalogProvider | undefined; pluginDataDir: string }): AgentSkillsRuntimeConfig {
  const s = o.settings;
  const toolNames = runtimeToolNames();
  return {
    pluginDataDir: o.pluginDataDir,
    runner: {
      stateDir: path.join(o.stateDir, 'exec'),
      workspaceDir: o.workspaceDir,
      defaultTimeoutMs: Math.round(s.scriptTimeoutSeconds * 1000),
      sandbox: s.sandbox,
      maxRunBytes: Math.round(s.maxRunMB * 1024 * 1024),
      maxHomeBytes: Math.round(s.maxHomeMB * 1024 * 1024),
    },
    // Asked per run and per check: a run refused for trust is not asked about either.
    executor: trustGate(() => vscode.workspace.isTrusted),
    // The skills of agentSkills.mcpServers join it in the core (its MCP source), which also refuses to run them.
    source: runtimeSource(o.registry, o.catalog),
    runtime: {
      loadMode: s.loadMode,
      maxLoadedSkills: s.maxLoadedSkills,
      maxReadBytes: s.maxReadBytes,
      placement: s.placement,
      catalogBudget: { maxTokens: s.catalogMaxTokens, maxChars: s.catalogMaxChars },
      loadedContentBudget: s.loadedContentBudget,
      restrictedTools: s.restrictedTools,
      toolNames,
      ...surfacePromptOptions(s.toolSurface, toolNames),
    },
  };
}
