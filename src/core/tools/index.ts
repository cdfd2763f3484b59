/**
 * The one tool model (issue 12): every tool as one descriptor in one table, one error type, one result
 * type, one paging contract, one result-to-text function. VS Code, the CLI and MCP adapt these.
 */
export * from './toolNames';
export { ToolError, snakeCode, defaultHint, type ToolErrorCode, type ToolErrorShape } from './toolError';
export { settle, succeeded, type ToolResult, type ToolSuccess, type ToolFailure, type TouchedSkill } from './toolResult';
export { toToolError } from './toToolError';
export { zodProblems, inputError } from './zodProblems';
export { utf8Boundary, nextPartOffset } from './paging';
