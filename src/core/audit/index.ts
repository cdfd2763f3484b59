export { AuditLog, MAX_AUDIT_FILE_BYTES, readAuditFile, redactEnv, REDACTED, type AuditEntry, type AuditLogOptions } from './auditLog';
