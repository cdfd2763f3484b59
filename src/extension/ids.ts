// Every id the extension shares with package.json's `contributes`, in one place.
// (A test checks these against package.json, so a rename cannot drift.)

/** The extension's id as `publisher.name`. */
export const EXTENSION_ID = 'agent-skills-runtime.agent-skills-runtime';

/** Language Model Tool names (contributes.languageModelTools[].name). */
export const TOOL_NAMES = {
  list: 'skills_list',
} as const;

/** The chat participant (contributes.chatParticipants[]). */
export const PARTICIPANT = {
  id: 'agent-skills-runtime.skills',
  name: 'skills',
} as const;
