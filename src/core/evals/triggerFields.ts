// The fields of one request in a skill's trigger set (`evals/trigger-queries.json`): the two the agentskills.io
// guide "Optimizing skill descriptions" uses (`query`, `should_trigger`) and the ones this project adds (`split`,
// `note`). One table for the checks, completion and hover.

import { isFieldOf, type JsonField } from './jsonFields';

/** Where a skill's trigger set lives, relative to its folder. */
export const TRIGGER_QUERIES_FILE = 'evals/trigger-queries.json';

/** The two halves of a trigger set: tune the description on `train`, check on `validation` that it generalised. */
export const TRIGGER_SPLITS = ['train', 'validation'] as const;
export type TriggerSplit = (typeof TRIGGER_SPLITS)[number];

/** One field of a request: its JSON type, whether it must be there, and what it means (Markdown). */
export type TriggerField = JsonField;

export type TriggerFieldName = 'query' | 'should_trigger' | 'split' | 'note';

export const TRIGGER_FIELDS: Record<TriggerFieldName, TriggerField> = {
  query: {
    type: 'string',
    required: true,
    doc: 'A request as a user would type it (realistic, with context; near-miss requests for the negatives). The agentskills.io guide "Optimizing skill descriptions" suggests about twenty per skill.',
  },
  should_trigger: {
    type: 'boolean',
    required: true,
    doc: '`true` when this request should make the agent load the skill; `false` for a request that should not (a near miss: shared keywords, another skill\'s job).',
  },
  split: {
    type: 'string',
    required: false,
    values: TRIGGER_SPLITS,
    doc: 'Added by Agent Skills Runtime. `"train"`: used while tuning the description. `"validation"`: held out, to check that a tuned description generalises (the guide suggests about 60% train, 40% validation). Requests without it count as train.',
  },
  note: {
    type: 'string',
    required: false,
    doc: 'Added by Agent Skills Runtime. Why the request is in the set (what it tests); ignored when judging.',
  },
};

export const TRIGGER_FIELD_NAMES = Object.keys(TRIGGER_FIELDS) as TriggerFieldName[];

export function isTriggerField(name: string): name is TriggerFieldName {
  return isFieldOf(TRIGGER_FIELDS, name);
}
