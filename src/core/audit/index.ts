export { AuditLog, readAuditFile, type AuditEntry, type AuditLogOptions } from './auditLog';
