export * from './execTypes';
export { ScriptRunError, type ScriptRunErrorCode } from './scriptRunError';
export { createScriptRunner, type ScriptRunner } from './scriptRunner';
export { type ScriptRunnerOptions } from './options';
export { INTERPRETER_MAPPING, type InterpreterRule, type InterpreterCandidate } from './interpreters';
export { DEFAULT_ENV_ALLOWLIST, DEFAULT_ENV_PREFIXES } from './env';
export { ArtifactStore, readArtifact, parseArtifactRef, formatArtifactRef, type ArtifactInfo, type ArtifactRef } from './artifactStore';
export { splitCommandLine } from './commandLine';
