export { checkTriggerQueries, lineOf, positionOf, MAX_TRIGGER_DEPTH, MAX_TRIGGER_FILE_CHARS, MAX_TRIGGER_QUERIES, namesSkill, nestingDepth, triggerQueryKey, triggerTextParseable, type TriggerCheck, type TriggerFinding, type TriggerQuery } from './checkTriggerQueries';
export { isTriggerField, TRIGGER_FIELD_NAMES, TRIGGER_FIELDS, TRIGGER_QUERIES_FILE, TRIGGER_SPLITS, type TriggerField, type TriggerFieldName, type TriggerSplit } from './triggerFields';
export { requestPassed, splitScores, type TriggerJudgeKind, type TriggerReport, type TriggerRequestResult, type TriggerSplitScore, type TriggerTrial } from './triggerResults';
export { markdownTable, markdownText, MAX_CELL_CHARS } from './markdownText';
export { insteadNames, insteadText, percent, rateBar, rateChart, renderTriggerReport, requestPassRate, scoreText, type TriggerReportRenderOptions } from './triggerReportMarkdown';
export { diffTriggerReports, renderTriggerDiff, type TriggerChange, type TriggerReportDiff, type TriggerRequestDiff, type TriggerRunSummary } from './triggerDiff';
export { triggerFailureMessage } from './triggerVerdict';
export { MAX_REPORT_CHARS, parseTriggerReport } from './triggerReportJson';
