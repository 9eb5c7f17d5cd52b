-- A job whose process dies (killed, crashed, the machine restarted) cannot record its own end.
-- Each job now names the process that runs it (pid and host); the next CLI command or console
-- start on that machine finds the jobs of processes that are gone and marks them 'interrupted',
-- so none stays 'running' for ever and the console can say what happened.

alter table public.jobs drop constraint jobs_status_check;
alter table public.jobs add constraint jobs_status_check
  check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'));

alter table public.jobs add column pid integer check (pid is null or pid > 0);
alter table public.jobs add column host text;
comment on column public.jobs.pid is 'The id of the process that runs the job, on host: a job whose process is gone was interrupted.';
comment on column public.jobs.host is 'The machine (os.hostname()) of the process that runs the job.';

create index jobs_unfinished_idx on public.jobs (host) where status in ('queued', 'running');
