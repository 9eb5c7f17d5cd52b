-- The history of operator jobs (migrate, crawl, images, rebuild), written by the CLI and the
-- console with the service role, so past runs and live progress survive a restart.
-- Visitors see nothing of it.

create table public.jobs (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('migrate', 'crawl', 'images', 'rebuild')),
  status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  params jsonb not null default '{}'::jsonb,
  progress jsonb not null default '{"phase": "queued", "done": 0, "total": 0}'::jsonb,
  result jsonb,
  error text,
  log jsonb not null default '[]'::jsonb check (jsonb_typeof(log) = 'array'),
  started_by text not null default 'cli',
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz check (finished_at is null or started_at is null or finished_at >= started_at),
  updated_at timestamptz not null default now()
);
comment on table public.jobs is 'Operator job history and progress (phase, done, total), result or error, and log lines.';
create index jobs_created_idx on public.jobs (created_at desc);
create index jobs_kind_status_idx on public.jobs (kind, status);

create trigger jobs_updated_at before update on public.jobs
  for each row execute function public.set_updated_at();

alter table public.jobs enable row level security;
create policy "Service role manages jobs" on public.jobs
  for all to service_role using (true) with check (true);

revoke all on public.jobs from anon, authenticated;
grant select, insert, update, delete on public.jobs to service_role;
