import { labels } from '../../../codegen/generated/labels.ts';
import type { Handlers } from '../../http/handler-types.ts';
import { writeLogs } from '../applications/records.ts';
import { listJobs, retryDeadJob } from './jobs.ts';

/** Platform admin: the durable queue's jobs, and a job that gave up tried again (x-access: df.admin). */
export const adminJobHandlers: Pick<Handlers, 'AdminJobs_GetJobs' | 'AdminJobs_RetryJob'> = {
  async AdminJobs_GetJobs({ body, services }) {
    return { status: 200, body: await listJobs(services.db, body) };
  },
  async AdminJobs_RetryJob({ body, caller, services }) {
    const job = await retryDeadJob(services.db, body.jobId);
    // The application's log says who sent its lender or its message off again, beside what the job then writes.
    if (job.appId !== null) {
      await writeLogs(services.db, job.appId, caller, [{ kind: 'Event', message: `Tried again by a platform admin: ${labels.JobQueue![job.queue]}`, data: { jobId: job.jobId, queue: job.queue } }]);
    }
    return { status: 200, body: job };
  },
};
