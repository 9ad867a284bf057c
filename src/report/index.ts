/** The static HTML report of a run folder: `report.html`, opened from file:// without a server. */
export { renderRunReport, type RunReportInput } from './render.tsx'
export { writeRunReport, writeFolderReport, writeRecordsReport, REPORT_FILE, type WriteRunReportOptions } from './write.ts'
