/** The package version, read from package.json beside the bundle (one source of truth); `unknown` when absent. */
export function cliVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('../package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
