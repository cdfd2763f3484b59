/**
 * The largest file a host reads whole unless the caller asks for another limit: what a SKILL.md or any skill
 * file may weigh (skill/parseLimits re-exports it as MAX_SKILL_FILE_BYTES).
 */
export const DEFAULT_MAX_READ_BYTES = 16 * 1024 * 1024;
