/**
 * Skill packs: archives (.zip, .tar, .tar.gz, .tgz) from a path or URL, downloaded once
 * into a cache keyed by URL and digest, and extracted safely. Node builtins and pure
 * npm packages only.
 */
export { downloadToCache, sha256File, type DownloadOptions, type DownloadResult } from './download';
export { DEFAULT_LIMITS, ExtractSink, safeEntryPath, type EntryStream, type ExtractLimits, type ExtractReport, type LinkPolicy, type SkippedEntry } from './extractPolicy';
export { extractTar } from './extractTar';
export { extractZip } from './extractZip';
export { findPackSkills } from './findSkills';
export { installPack, type InstalledPack, type InstallPackOptions } from './installPack';
export { PackError, type PackErrorCode } from './packErrors';
