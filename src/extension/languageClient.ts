// The client of the SKILL.md language server (dist/server.js). Started lazily: when a SKILL.md is opened
// or validation is asked for, never on the activation path.
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { SkillServerInitOptions } from '../../server/protocol';
import { PROJECT_SKILL_DIRS } from '../core/registry/defaultSkillRoots';
import type { SkillRecord } from '../core/registry/registryTypes';
import { findSource } from '../core/sources';

/** True when VS Code's own skill support (and its SKILL.md validator) is on. */
export function builtinSkillValidatorActive(): boolean {
  return vscode.workspace.getConfiguration('chat').get<boolean>('useAgentSkills') === true;
}

type Protocol = typeof import('../../server/protocol');

/**
 * The client/server contract, required when the client starts: it builds its message types with the protocol
 * library at load, which the extension bundle takes from the client's file in dist/vendor/ (scripts/build.mjs).
 */
function protocol(): Protocol {
  return require('../../server/protocol') as Protocol;
}

function initOptions(): SkillServerInitOptions {
  const { SETTING_KEYS } = protocol();
  const c = vscode.workspace.getConfiguration();
  return {
    mode: c.get<'strict' | 'lenient'>(SETTING_KEYS.validationMode),
    debounceMs: c.get<number>(SETTING_KEYS.validationDebounceMs),
    deferToBuiltin: c.get<boolean>(SETTING_KEYS.deferToBuiltin),
    builtinSkillValidatorActive: builtinSkillValidatorActive(),
    // VS Code's chat features explain the fields of a `skill` document in a hover of their own (unless the AI
    // features are turned off): ours then adds only the live count, so the meaning is not shown twice.
    builtinFieldHover: c.get<boolean>('chat.disableAIFeatures') !== true,
  };
}

/** True when VS Code's Markdown extension gives this document an outline of its headings. */
function markdownOutlinesHeadings(doc: vscode.TextDocument): boolean {
  return (doc.languageId === 'skill' || doc.languageId === 'markdown') && vscode.extensions.getExtension('vscode.markdown-language-features') !== undefined;
}

function isSkillFile(doc: vscode.TextDocument): boolean {
  return /(^|[\\/])SKILL\.md$/.test(doc.uri.path) && (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled');
}

/** A skill's trigger set (evals/trigger-queries.json) or eval set (evals/evals.json), which the server checks too. */
function isTriggerFile(doc: vscode.TextDocument): boolean {
  return doc.uri.scheme === 'file' && /\/evals\/(trigger-queries|evals)\.json$/.test(doc.uri.path);
}

/** The running client, started on demand. */
export class SkillLanguageClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get started(): boolean {
    return this.client !== undefined;
  }

  /** Starts the server once; later calls get the same client. */
  start(): Promise<LanguageClient> {
    this.starting ??= this.create().catch((e: unknown) => {
      this.starting = undefined;
      this.log.error(`The SKILL.md language server did not start: ${(e as Error).message}`);
      throw e;
    });
    return this.starting;
  }

  private async create(): Promise<LanguageClient> {
    // Loaded here, not at the top: the client library is large and most windows never open a SKILL.md.
    // A plain require (the bundle is CommonJS) that the build points at a separate file in dist/ (scripts/build.mjs,
    // `vendor`), so the extension's own bundle does not even carry the library's source to parse.
    const { LanguageClient, TransportKind } = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');
    const { SETTINGS_SECTION, SKILL_DOCUMENT_SELECTOR, PLUGIN_DOCUMENT_SELECTOR, TRIGGER_DOCUMENT_SELECTOR } = protocol();
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
    };
    const skillFolders = `**/{${PROJECT_SKILL_DIRS.join(',')}}/**/*`;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [...SKILL_DOCUMENT_SELECTOR, ...PLUGIN_DOCUMENT_SELECTOR, ...TRIGGER_DOCUMENT_SELECTOR].map((s) => ({ ...s })),
      initializationOptions: initOptions(),
      synchronize: {
        configurationSection: SETTINGS_SECTION,
        fileEvents: vscode.workspace.createFileSystemWatcher(skillFolders),
      },
      middleware: {
        // VS Code's Markdown extension outlines the headings of SKILL.md too (it serves the `skill` language):
        // keep our frontmatter symbols and leave the headings to it, so the outline lists each heading once.
        provideDocumentSymbols: async (document, token, next) => {
          const result = await next(document, token);
          if (!result || !markdownOutlinesHeadings(document)) return result;
          return (result as (vscode.DocumentSymbol | vscode.SymbolInformation)[]).filter((s) => s.kind !== vscode.SymbolKind.String) as typeof result;
        },
        workspace: {
          // The server also needs to know whether VS Code's own validator runs; it is not one of our settings.
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            if (!Array.isArray(result)) return result;
            return result.map((r, i) =>
              params.items[i]?.section === SETTINGS_SECTION && r && typeof r === 'object'
                ? { ...(r as object), builtinSkillValidatorActive: builtinSkillValidatorActive() }
                : r,
            );
          },
        },
      },
      outputChannel: this.log,
      traceOutputChannel: this.log,
    };
    const client = new LanguageClient('agentSkills', 'Agent Skills Language Server', serverOptions, clientOptions);
    await client.start();
    this.client = client;
    this.log.info('SKILL.md language server started.');
    return client;
  }

  /** Diagnostics the server computes for these files (it publishes them to the Problems view too). */
  async validate(files: vscode.Uri[]): Promise<Map<string, vscode.Diagnostic[]>> {
    const client = await this.start();
    const { ValidateRequest } = protocol();
    const out = new Map<string, vscode.Diagnostic[]>();
    for (const f of files) {
      const r = await client.sendRequest(ValidateRequest, { uri: f.toString() });
      out.set(f.fsPath, await client.protocol2CodeConverter.asDiagnostics(r.diagnostics));
    }
    return out;
  }

  dispose(): void {
    void this.client?.stop();
  }
}

/** What the client needs to know about the skills the extension found (SkillsService). */
export interface ScannedSkills {
  onDidScan: vscode.Event<{ all(): readonly SkillRecord[] }>;
  onDidChangeSkills: vscode.Event<void>;
  peekRegistry(): { all(): readonly SkillRecord[] } | undefined;
}

/** True when a workspace skill has a problem the server would list in the Problems view. */
function workspaceSkillHasProblems(records: readonly SkillRecord[]): boolean {
  return records.some((r) => findSource(r.scope)?.inWorkspace === true && r.diagnostics.some((d) => d.severity === 'error' || d.severity === 'warning'));
}

/**
 * Creates the client and starts it when the first SKILL.md is opened (or is open already), or when the
 * extension's scan finds a workspace skill with problems: the Skills view then shows it as broken, and the
 * Problems view must list why without the user opening the file first.
 */
export function registerLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, skills?: ScannedSkills): SkillLanguageClient {
  const lc = new SkillLanguageClient(context, log);
  const maybeStart = (doc: vscode.TextDocument) => {
    if (!lc.started && (isSkillFile(doc) || isTriggerFile(doc))) void lc.start().catch(() => undefined);
  };
  const startIfBroken = (registry: { all(): readonly SkillRecord[] } | undefined) => {
    if (lc.started || !registry || !workspaceSkillHasProblems(registry.all())) return;
    // After the scan's listeners (the Skills view, the catalog) have their skills: loading the client
    // library takes a few ms of the main thread and must not stand between a scan and its results.
    setTimeout(() => {
      if (!lc.started) void lc.start().catch(() => undefined);
    }, 0);
  };
  if (skills) {
    context.subscriptions.push(
      skills.onDidScan(startIfBroken),
      skills.onDidChangeSkills(() => startIfBroken(skills.peekRegistry())),
    );
  }
  context.subscriptions.push(
    lc,
    vscode.workspace.onDidOpenTextDocument(maybeStart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // chat.useAgentSkills is not in our section: tell the server by a configuration change of ours.
      if (lc.started && e.affectsConfiguration('chat.useAgentSkills')) void lc.start().then((c) => c.sendNotification('workspace/didChangeConfiguration', { settings: null }));
    }),
  );
  for (const doc of vscode.workspace.textDocuments) maybeStart(doc);
  return lc;
}
