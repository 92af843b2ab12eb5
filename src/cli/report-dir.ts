// The run's report directory, made before the first request, so a place that cannot hold reports loses no run.
import { resolve } from 'node:path';
import { ReportDirError, timestampDir } from '../report/write.ts';
import { UsageError } from './errors.ts';

export const reportDirFor = async (reportDir: string): Promise<string> => {
  try {
    return await timestampDir(resolve(reportDir));
  } catch (error) {
    if (error instanceof ReportDirError) throw new UsageError(`--report-dir ${reportDir}: ${error.message}`);
    throw error;
  }
};
