/** Thrown by a command for bad arguments; main prints the command's usage and exits 2. */
export class UsageError extends Error {}
