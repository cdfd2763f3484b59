import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/** A JSON-RPC error as MCP handlers throw it: the code, the message, and optional `data`. */
export type RequestError = Error & { code: number; data?: unknown };

/** -32002: "resource not found" through 2025-11-25 (the 2026-07-28 revision answers -32602 with the same data). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A JSON-RPC error for a request that names something we do not serve (-32602). Not the SDK's McpError: that
 * prefixes "MCP error <code>:" to the message, which the client then prefixes again, so users read the code
 * twice before the reason.
 */
export function invalidParams(message: string, data?: unknown): RequestError {
  return Object.assign(new Error(message), { code: ProtocolErrorCode.InvalidParams }, data === undefined ? {} : { data });
}

/**
 * A resource that is not served: -32002 with `data.uri`, as the 2025-11-25 specification's example has it.
 * The 2026-07-28 dispatcher turns the code into -32602 and keeps the data ({@link modernErrorCode}).
 */
export function resourceNotFound(uri: string, message: string): RequestError {
  return Object.assign(new Error(message), { code: RESOURCE_NOT_FOUND, data: { uri } });
}

/** The code a 2026-07-28 answer carries for an error thrown with `code`: that revision folded -32002 into -32602. */
export function modernErrorCode(code: number): number {
  return code === RESOURCE_NOT_FOUND ? ProtocolErrorCode.InvalidParams : code;
}
