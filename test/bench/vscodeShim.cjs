// The smallest `vscode` module the extension's activation path needs, for measuring activation outside
// VS Code (test/bench/activation.bench.ts). Registrations are kept and do nothing; configuration is empty.
'use strict';
class EventEmitter {
  constructor() { this.listeners = new Set(); this.event = (l) => { this.listeners.add(l); return { dispose: () => this.listeners.delete(l) }; }; }
  fire(e) { for (const l of [...this.listeners]) l(e); }
  dispose() { this.listeners.clear(); }
}
const disposable = () => ({ dispose() {} });
const event = () => disposable();
class Uri {
  constructor(fsPath) { this.scheme = 'file'; this.fsPath = fsPath; this.path = fsPath; }
  static file(p) { return new Uri(p); }
  toString() { return `file://${this.path}`; }
}
// The extension reads the names of these factories at load (src/extension/evals/modelJudge.ts).
class LanguageModelError extends Error {
  static NoPermissions(m) { return new LanguageModelError(m); }
  static Blocked(m) { return new LanguageModelError(m); }
  static NotFound(m) { return new LanguageModelError(m); }
}
const commands = new Map();
const watcher = () => ({ onDidCreate: event, onDidChange: event, onDidDelete: event, dispose() {} });
let folders = [];
module.exports = {
  __setWorkspaceFolders(paths) { folders = paths.map((p, index) => ({ uri: Uri.file(p), name: p, index })); },
  __commands: commands,
  EventEmitter,
  Uri,
  LanguageModelError,
  RelativePattern: class { constructor(base, pattern) { this.base = base; this.pattern = pattern; } },
  ThemeIcon: class { constructor(id) { this.id = id; } },
  ThemeColor: class { constructor(id) { this.id = id; } },
  TreeItem: class { constructor(label, state) { this.label = label; this.collapsibleState = state; } },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  MarkdownString: class { constructor(v = '') { this.value = v; } appendMarkdown(v) { this.value += v; return this; } },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  window: {
    createOutputChannel: () => ({ info(m) { if (process.env.SHIM_LOG) console.error(m); }, warn() {}, error() {}, debug() {}, trace() {}, appendLine() {}, show() {}, dispose() {} }),
    createTreeView: () => ({ onDidChangeSelection: event, dispose() {}, badge: undefined }),
    textDocuments: [],
  },
  workspace: {
    get workspaceFolders() { return folders; },
    isTrusted: true,
    textDocuments: [],
    getConfiguration: () => ({ get: () => undefined }),
    getWorkspaceFolder: (uri) => folders.find((f) => uri.fsPath.startsWith(f.uri.fsPath)),
    createFileSystemWatcher: watcher,
    onDidOpenTextDocument: event,
    onDidChangeConfiguration: event,
    onDidGrantWorkspaceTrust: event,
    onDidChangeWorkspaceFolders: event,
    registerTextDocumentContentProvider: disposable,
  },
  languages: { createDiagnosticCollection: () => ({ set() {}, clear() {}, dispose() {} }), registerCodeLensProvider: disposable },
  commands: {
    registerCommand: (id, fn) => { commands.set(id, fn); return disposable(); },
    executeCommand: async (id, ...args) => (commands.has(id) ? commands.get(id)(...args) : undefined),
  },
  extensions: { all: [], onDidChange: event, getExtension: () => undefined },
  lm: { registerTool: disposable, tools: [] },
  chat: { createChatParticipant: () => ({ dispose() {} }) },
};
