export * from './types';
export { createSkillRegistry, type SkillRegistry, type SkillRegistryOptions } from './skillRegistry';
export { defaultSkillRoots, dedupeRoots, PROJECT_SKILL_DIRS, USER_SKILL_DIRS, type DefaultSkillRootsInput } from './defaultSkillRoots';
export { createNodeRegistryHost, createAsyncNodeRegistryHost, type RegistryHost, type DirEntry, type FileStamp, type FileRead, type MaybePromise } from './registryHost';
export { SkillRegistryError, SkillNotFoundError, AmbiguousSkillError, BrokenSkillError } from './registryErrors';
export { parseOnlyChecker, SKILL_FILE_NAMES, type SkillChecker, type SkillCheckInput } from './loadSkill';
export { baseSkillId } from './skillId';
export { contentChecker, createFullChecker } from './validatorChecker';
export { pluginContributions, pluginRegistryHost, nodePathKind, type PluginPackage, type PluginContributions, type PathKind } from './pluginContributions';
