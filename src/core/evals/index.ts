export { checkTriggerQueries, MAX_TRIGGER_DEPTH, MAX_TRIGGER_FILE_CHARS, MAX_TRIGGER_QUERIES, namesSkill, nestingDepth, triggerTextParseable, type TriggerCheck, type TriggerFinding, type TriggerQuery } from './checkTriggerQueries';
export { isTriggerField, TRIGGER_FIELD_NAMES, TRIGGER_FIELDS, TRIGGER_QUERIES_FILE, TRIGGER_SPLITS, type TriggerField, type TriggerFieldName, type TriggerSplit } from './triggerFields';
export { requestPassed, splitScores, type TriggerJudgeKind, type TriggerReport, type TriggerRequestResult, type TriggerSplitScore, type TriggerTrial } from './triggerResults';
export { MAX_TRIAL_ROUNDS, requestResult, runModelTrial, selectedSkills, trialOf, type TrialConversation, type TrialToolCall, type TrialToolNames } from './modelTrial';
export { assignSplits, draftPrompt, jsonOfAnswer, MAX_MODEL_ANSWER_CHARS, ModelAnswerError, newQueries, parseDraftedQueries, triggerFileText, VALIDATION_SHARE, type SkillBrief } from './triggerDrafts';
export { failuresOf, MAX_DESCRIPTION_CHARS, parseSuggestedDescription, suggestPrompt } from './descriptionSuggestion';
export { readLastReport, reportPath, writeLastReport } from './triggerReportStore';
