/**
 * Baseline for the LSP latency bench: the same connection and document sync as the real server, but it
 * answers every change with an empty publishDiagnostics (no parsing, no validation).
 */
import { createConnection, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection();
const documents = new TextDocuments(TextDocument);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental } } }));
documents.onDidChangeContent((e) => connection.sendDiagnostics({ uri: e.document.uri, version: e.document.version, diagnostics: [] }));
documents.listen(connection);
connection.listen();
