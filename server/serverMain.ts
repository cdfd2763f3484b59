import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { Inbox } from './inbox';
import { defaultDeps, startServer } from './startServer';

// Under stdio, stdout carries the protocol: every console call goes to the client's log instead.
// The inbox counts the messages handled, so a validation starts once those already received are answered.
const inbox = new Inbox();
const connection = createConnection(ProposedFeatures.all, { messageStrategy: inbox });
console.log = connection.console.log.bind(connection.console);
console.info = connection.console.info.bind(connection.console);
console.warn = connection.console.warn.bind(connection.console);
console.error = connection.console.error.bind(connection.console);
process.on('uncaughtException', (e) => connection.console.error(`agent-skills: uncaught ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
process.on('unhandledRejection', (e) => connection.console.error(`agent-skills: unhandled rejection ${String(e)}`));
startServer(connection, { ...defaultDeps, inbox });
