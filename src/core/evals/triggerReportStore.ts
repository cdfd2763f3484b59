// The last trigger report per trigger file and judge, kept so the next run can show what changed. One JSON file per
// pair under a folder the host owns (VS Code's extension storage), written atomically by the host (temp + rename).
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { FileWrites } from '../host/fileWrites';
import type { SkillsHost } from '../host/skillsHost';
import { parseTriggerReport } from './triggerReportJson';
import type { TriggerJudgeKind, TriggerReport } from './triggerResults';

/** The largest stored report read back (a thousand requests with their trials fit well under it). */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;

/** Where the last report of a trigger file for one judge is kept. */
export function reportPath(dir: string, file: string, judge: TriggerJudgeKind): string {
  return path.join(dir, 'trigger-reports', `${createHash('sha256').update(file).digest('hex').slice(0, 24)}-${judge}.json`);
}

/** The stored report, or undefined when there is none (or it cannot be read or parsed: it is only a comparison). */
export async function readLastReport(host: SkillsHost, dir: string, file: string, judge: TriggerJudgeKind): Promise<TriggerReport | undefined> {
  try {
    const read = await host.readFile(reportPath(dir, file, judge), { maxBytes: MAX_REPORT_BYTES });
    if (!read) return undefined;
    const r = parseTriggerReport(new TextDecoder().decode(read.bytes), reportPath(dir, file, judge));
    return r.file === file && r.judge === judge ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `report` as the last of its file and judge (atomic replace). */
export async function writeLastReport(host: FileWrites, dir: string, report: TriggerReport): Promise<void> {
  await host.writeFile(reportPath(dir, report.file, report.judge), `${JSON.stringify(report)}\n`);
}
