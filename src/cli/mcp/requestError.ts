import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error for a request that names something we do not serve (-32602, the code the Skills Extension and
 * `resources/read` use). Not the SDK's McpError: that prefixes "MCP error <code>:" to the message, which the
 * client then prefixes again, so users read the code twice before the reason.
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}
