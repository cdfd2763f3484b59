// Every tool, once: the descriptors in the order hosts list them (package.json's manifest keeps this order).
import { catalogToolNames, runtimeToolNames, type RuntimeToolId } from '../tools/toolNames';
import { runSkillDescriptor, updateSkillDescriptor } from './descriptors/catalogTools';
import { listSkillsDescriptor } from './descriptors/listSkills';
import { runtimeToolDescriptors } from './descriptors/runtimeTools';
import type { ToolDescriptor, ToolFamily } from './toolDescriptor';

/** The tool table. */
export const TOOLS: readonly ToolDescriptor[] = [listSkillsDescriptor as ToolDescriptor, ...runtimeToolDescriptors, runSkillDescriptor, updateSkillDescriptor];

const byName = new Map<string, ToolDescriptor>(TOOLS.flatMap((t) => [[t.name, t] as const, [t.id, t] as const]));

/** The descriptor of a tool by its public name (or the runtime's id for its tools); undefined for others. */
export function findTool(nameOrId: string): ToolDescriptor | undefined {
  return byName.get(nameOrId);
}

/** The descriptor of one of the runtime's tools, by its id. */
export function runtimeTool(id: RuntimeToolId): ToolDescriptor {
  return byName.get(id) as ToolDescriptor;
}

/** The tools of one family. */
export function toolsOf(family: ToolFamily): ToolDescriptor[] {
  return TOOLS.filter((t) => t.family === family);
}

export { catalogToolNames, runtimeToolNames };
