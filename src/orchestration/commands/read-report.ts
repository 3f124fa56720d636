/** Reads a report.json given on the command line: `report`, `compare` and `merge` all read through here. */
import type { Report } from '../../contract/report.js';
import { loadReport } from '../../contract/validate-report.js';
import { decodeHistogram } from '../../metrics/histogram.js';

/**
 * The report at `path`, validated down to its HDR payloads, so that a file that would
 * break a command halfway (a truncated or foreign histogram) is refused up front as the
 * user's input (exit 2, naming the file and the field) rather than reported as a defect.
 */
export function readReportFile(path: string): Promise<Report> {
  return loadReport(path, { decodeHdr: decodeHistogram });
}
