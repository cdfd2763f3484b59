export { AuditLog, readAuditFile, redactEnv, REDACTED, type AuditEntry, type AuditLogOptions } from './auditLog';
