import type { ChatMessage, ComposeResult, TokenCounter } from './promptTypes';

/** A call as one string in send order (instructions, then each message), for prefix and token measures. */
export function serializeCall(call: Pick<ComposeResult, 'instructions' | 'messages'>): string {
  return [call.instructions, ...call.messages.map(serializeMessage)].join('\n');
}

function serializeMessage(m: ChatMessage): string {
  switch (m.role) {
    case 'tool-call':
      return `[tool-call ${m.callId} ${m.name}] ${JSON.stringify(m.input)}`;
    case 'tool-result':
      return `[tool-result ${m.callId}] ${m.content}`;
    default:
      return `[${m.role}] ${m.content}`;
  }
}

/** Prompt tokens of one call: instructions plus every message. */
export function promptTokens(call: Pick<ComposeResult, 'instructions' | 'messages'>, counter: TokenCounter): number {
  return counter.count(call.instructions) + call.messages.reduce((n, m) => n + counter.count(serializeMessage(m)), 0);
}

/**
 * How much of each call a prompt cache could reuse from the call before it: the sum over consecutive
 * pairs of their common prefix length, divided by the sum of the earlier calls' lengths (1 = every call
 * extends the previous one byte for byte).
 */
export function sharedPrefixFraction(calls: readonly Pick<ComposeResult, 'instructions' | 'messages'>[]): number {
  let shared = 0;
  let total = 0;
  for (let i = 1; i < calls.length; i++) {
    const a = serializeCall(calls[i - 1]);
    const b = serializeCall(calls[i]);
    let n = 0;
    const max = Math.min(a.length, b.length);
    while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
    shared += n;
    total += a.length;
  }
  return total ? shared / total : 1;
}
