// The client of the SKILL.md language server (dist/server.js). Started lazily: when a SKILL.md is opened
// or validation is asked for, never on the activation path.
import * as vscode from 'vscode';
import type { LanguageClient, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { SkillServerInitOptions } from '../../server/protocol';
import { PROJECT_SKILL_DIRS } from '../core/registry/defaultSkillRoots';

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
  };
}

function isSkillFile(doc: vscode.TextDocument): boolean {
  return /(^|[\\/])SKILL\.md$/.test(doc.uri.path) && (doc.uri.scheme === 'file' || doc.uri.scheme === 'untitled');
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
    const { SETTINGS_SECTION, SKILL_DOCUMENT_SELECTOR } = protocol();
    const module = this.context.asAbsolutePath('dist/server.js');
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
    };
    const skillFolders = `**/{${PROJECT_SKILL_DIRS.join(',')}}/**/*`;
    const clientOptions: LanguageClientOptions = {
      documentSelector: SKILL_DOCUMENT_SELECTOR.map((s) => ({ ...s })),
      initializationOptions: initOptions(),
      synchronize: {
        configurationSection: SETTINGS_SECTION,
        fileEvents: vscode.workspace.createFileSystemWatcher(skillFolders),
      },
      middleware: {
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

/** Creates the client and starts it when the first SKILL.md is opened (or is open already). */
export function registerLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): SkillLanguageClient {
  const lc = new SkillLanguageClient(context, log);
  const maybeStart = (doc: vscode.TextDocument) => {
    if (!lc.started && isSkillFile(doc)) void lc.start().catch(() => undefined);
  };
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
