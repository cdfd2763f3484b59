/**
 * The one tool model (issue 12): every tool as one descriptor in one table, one error type, one result
 * type, one paging contract, one result-to-text function. VS Code, the CLI and MCP adapt these.
 */
export * from './toolNames';
export { TOOLS, findTool, runtimeTool, toolsOf } from './toolTable';
export type { ToolDescriptor, ToolCallContext, ToolServices, ToolFamily, ToolHost, SkillListing, ListedSkill } from './toolDescriptor';
export { ToolError, snakeCode, defaultHint, type ToolErrorCode, type ToolErrorShape } from './toolError';
export type { ToolResult, ToolSuccess, ToolFailure } from './toolResult';
export { toToolError } from './toToolError';
export { zodProblems, inputError } from './zodProblems';
export { toolResultText } from './toolResultText';
export { utf8Boundary, nextPartOffset } from './paging';
export { listSkillsInput, type ListSkillsInput, type ListSkillsResult } from './descriptors/listSkills';
export { findSkillsInput, type FindSkillsInput, type FindSkillsResult } from './descriptors/findSkills';
export { CATALOG_TOOL_DESCRIPTIONS, fromCatalogOutcome } from './descriptors/catalogTools';
export { runModelText } from './descriptors/runtimeTools';
export { inputJsonSchema } from '../runtime/inputJsonSchema';
