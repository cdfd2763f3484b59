// The fields of a skill's eval set (`evals/evals.json`), as the agentskills.io guide "Evaluating skill output
// quality" defines them: the file names the skill and lists its cases; each case has an id, a prompt, the output
// expected, input files and assertions. Nothing here is added by this project. One table for the checks,
// completion and hover (the trigger set's pattern, triggerFields.ts).
import { isFieldOf, type JsonField } from './jsonFields';

/** Where a skill's eval set lives, relative to its folder. */
export const EVALS_FILE = 'evals/evals.json';

export type EvalsFileFieldName = 'skill_name' | 'evals';
export type EvalCaseFieldName = 'id' | 'prompt' | 'expected_output' | 'files' | 'assertions';

/** The fields of the file's top-level object. */
export const EVALS_FILE_FIELDS: Record<EvalsFileFieldName, JsonField> = {
  skill_name: {
    type: 'string',
    required: false,
    doc: "The name of the skill these evals test: its SKILL.md's `name`.",
  },
  evals: {
    type: 'array',
    items: 'object',
    required: true,
    doc: 'The test cases: each a realistic task given to an agent with the skill (and without, as a baseline), its output then graded against the expected output and the assertions. Agent Skills Runtime checks this file; it does not run these evals.',
  },
};

/** The fields of one test case (an element of `evals`). */
export const EVAL_CASE_FIELDS: Record<EvalCaseFieldName, JsonField> = {
  id: {
    type: 'number',
    required: true,
    doc: 'A whole number that identifies the case; unique in the file (results are kept per id).',
  },
  prompt: {
    type: 'string',
    required: true,
    doc: 'The task as a user would write it, with the details a real request carries (file names, context).',
  },
  expected_output: {
    type: 'string',
    required: false,
    doc: 'What a good result looks like, in words a reviewer (or a grading model) can check the output against.',
  },
  files: {
    type: 'array',
    items: 'string',
    required: false,
    doc: "Input files the case needs, as paths relative to the skill's folder (for example `evals/files/data.csv`). Each must exist inside the folder.",
  },
  assertions: {
    type: 'array',
    items: 'string',
    required: false,
    doc: 'Statements that must hold of the output, each checkable on its own (for example "The chart has labelled axes"). Often added after a first run shows what to check.',
  },
};

export const EVALS_FILE_FIELD_NAMES = Object.keys(EVALS_FILE_FIELDS) as EvalsFileFieldName[];
export const EVAL_CASE_FIELD_NAMES = Object.keys(EVAL_CASE_FIELDS) as EvalCaseFieldName[];

export function isEvalsFileField(name: string): name is EvalsFileFieldName {
  return isFieldOf(EVALS_FILE_FIELDS, name);
}

export function isEvalCaseField(name: string): name is EvalCaseFieldName {
  return isFieldOf(EVAL_CASE_FIELDS, name);
}
