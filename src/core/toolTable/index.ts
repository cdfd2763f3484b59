/**
 * The tool table (above the runtime and the catalog, whose tools it holds): every tool as one descriptor,
 * the result-to-text function that reads it, and the surfaces that pick from it. The contract the layers below
 * share (names, the one error type, results, paging, audit) is in ../tools.
 */
export { TOOLS, findTool, runtimeTool, toolsOf } from './toolTable';
export type { ToolDescriptor, ToolCallContext, ToolServices, ToolFamily, ToolFrontEnd, SkillListing, ListedSkill } from './toolDescriptor';
export { toolResultText } from './toolResultText';
export { callTool } from './callTool';
export { listSkillsInput, type ListSkillsInput, type ListSkillsResult } from './descriptors/listSkills';
export { findSkillsInput, type FindSkillsInput, type FindSkillsResult } from './descriptors/findSkillsTool';
export { CATALOG_TOOL_DESCRIPTIONS } from './descriptors/catalogTools';
export { runModelText } from './descriptors/runtimeTools';
export { inputJsonSchema } from '../runtime/inputJsonSchema';
