import type { Finding } from '../findings';
import type { Range } from '../skillTypes';
import { rule, type RuleInfo } from './ruleInfo';

export const XML_TAG = /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>/;

/** XML tags in the metadata a host places inside its prompt. */
export const XML_RULES: readonly RuleInfo[] = [
  rule('xml-tags', 'warning', 'warning', '`name` or `description` contains XML tags.',
    'Skill metadata is placed inside XML in the system prompt; tags in it can break or hijack that prompt. Remove the tags or describe them in words.'),
];

export function xmlFinding(field: string, range: Range): Finding {
  return {
    rule: 'xml-tags',
    message: `\`${field}\` contains an XML tag; skill metadata is placed inside XML in the prompt, where tags can break it. Remove the tag or describe it in words.`,
    range,
    data: { field },
  };
}
