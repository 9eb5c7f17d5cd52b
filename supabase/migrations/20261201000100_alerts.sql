-- Town alerts (issue 48): a boil-water notice, a washed-out road, the storm shelter open. An alert
-- is a row that operators publish from the console; the build puts the published ones in a banner
-- on every page, on /alerts, in an Atom feed and in one CAP 1.2 message per alert.
--
-- Every change goes through the edit functions (20261125000400_editing.sql), so it is audited,
-- undone from the console, and refused when stale. What was said to the town, and when, is kept
-- apart in alert_messages, written by a trigger so a change made by hand in SQL is covered too:
-- the first publication is CAP's msgType Alert, each later change of a published alert an Update
-- (whose `references` name the earlier messages), and the end an Update with responseType
-- AllClear and the operator's "All clear" note. The site shows them as "Updated" and "All clear".
--
-- The value rules and their messages live in scripts/src/content/schema.ts; the constraints here
-- keep what protects the site: a title of at most 120 characters, a body of at most 10 KB, the
-- known levels, kinds and states, and an end after the start.

create table public.alerts (
  id uuid primary key default gen_random_uuid(),
  title text not null check (length(btrim(title)) > 0 and char_length(title) <= 120),
  body text not null default '' check (octet_length(body) <= 10240),
  level text not null check (level in ('emergency', 'advisory', 'notice')),
  kind text not null default 'other'
    check (kind in ('weather', 'water', 'road', 'power', 'fire', 'health', 'safety', 'other')),
  area text check (area is null or (length(btrim(area)) > 0 and char_length(area) <= 200)),
  starts_at timestamptz not null default now(),
  ends_at timestamptz,
  status text not null default 'draft' check (status in ('draft', 'published', 'ended')),
  published_at timestamptz,
  ended_at timestamptz,
  all_clear text check (all_clear is null or char_length(all_clear) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint alerts_ends_after_start check (ends_at is null or ends_at > starts_at)
);
comment on table public.alerts is
  'Town alerts: a banner on every page of the site, /alerts, an Atom feed and a CAP 1.2 message each.';
comment on column public.alerts.title is 'The headline the banner shows, at most 120 characters.';
comment on column public.alerts.body is 'Markdown (the pages'' renderer), at most 10 KB.';
comment on column public.alerts.level is
  'emergency, advisory or notice: the banner''s order and words, CAP severity (Severe, Moderate, Minor) and urgency.';
comment on column public.alerts.kind is
  'weather, water, road, power, fire, health, safety or other: CAP''s category (Met, Infra, Transport, Fire, Health, Safety, Other).';
comment on column public.alerts.area is 'Which part of town; empty means the whole town.';
comment on column public.alerts.starts_at is 'When the alert takes effect (CAP effective/onset).';
comment on column public.alerts.ends_at is
  'When the alert stops showing on its own (CAP expires); empty: until an operator ends it.';
comment on column public.alerts.status is 'draft (not on the site), published (showing) or ended (the all clear was given).';
comment on column public.alerts.published_at is 'When the alert was first published (set by the database).';
comment on column public.alerts.ended_at is 'When the all clear was given (set by the database).';
comment on column public.alerts.all_clear is 'The "All clear" note given when the alert was ended, shown on its page.';
create index alerts_status_idx on public.alerts (status, starts_at desc);

create table public.alert_messages (
  id uuid primary key default gen_random_uuid(),
  alert_id uuid not null references public.alerts (id) on delete cascade,
  sequence integer not null check (sequence > 0),
  msg_type text not null check (msg_type in ('Alert', 'Update')),
  all_clear boolean not null default false,
  note text,
  sent_at timestamptz not null default now(),
  unique (alert_id, sequence)
);
comment on table public.alert_messages is
  'What was said about an alert and when: its first publication, each update and the all clear (CAP''s message history).';
comment on column public.alert_messages.id is 'The message''s CAP identifier.';
comment on column public.alert_messages.sequence is 'The message''s place in its alert''s history, from 1.';
comment on column public.alert_messages.msg_type is 'CAP msgType: Alert for the first publication, Update after.';
comment on column public.alert_messages.all_clear is 'The message ended the alert (CAP responseType AllClear).';
comment on column public.alert_messages.note is 'The operator''s note with it (the "All clear" message).';
comment on column public.alert_messages.sent_at is 'When the message was sent (CAP sent).';

create trigger alerts_updated_at before update on public.alerts
  for each row execute function public.set_updated_at();
create trigger alerts_audit after insert or update or delete on public.alerts
  for each row execute function public.audit_change();

/** Stamps when an alert was published and ended, whoever changed its status. */
create function public.alert_stamp_times()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status <> 'draft' and new.published_at is null then
    new.published_at := now();
  end if;
  if new.status = 'ended' and new.ended_at is null then
    new.ended_at := now();
  elsif new.status <> 'ended' then
    new.ended_at := null;
  end if;
  return new;
end;
$$;
comment on function public.alert_stamp_times() is 'Sets published_at and ended_at when an alert''s status moves.';
create trigger alerts_stamp_times before insert or update on public.alerts
  for each row execute function public.alert_stamp_times();

-- Security definer: an operator who may change an alert has what the town was told recorded,
-- though only the service role writes the history itself.
/** Records a message when a published alert is first shown, changes what it says, or ends. */
create function public.alert_record_message()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  earlier integer;
begin
  if new.status = 'draft' then
    return null;
  end if;
  if tg_op = 'UPDATE' and old.status <> 'draft' and old.status = new.status
     and (old.title, old.body, old.level, old.kind, old.area, old.starts_at, old.ends_at)
         is not distinct from (new.title, new.body, new.level, new.kind, new.area, new.starts_at, new.ends_at) then
    return null; -- nothing the town sees has changed
  end if;
  select coalesce(max(m.sequence), 0) into earlier from public.alert_messages m where m.alert_id = new.id;
  insert into public.alert_messages (alert_id, sequence, msg_type, all_clear, note)
  values (new.id, earlier + 1, case when earlier = 0 then 'Alert' else 'Update' end, new.status = 'ended',
          case when new.status = 'ended' then new.all_clear end);
  return null;
end;
$$;
comment on function public.alert_record_message() is
  'Adds an alert_messages row when a published alert appears, changes or ends.';
create trigger alerts_record_message after insert or update on public.alerts
  for each row execute function public.alert_record_message();

alter table public.alerts enable row level security;
create policy "Visitors read published alerts" on public.alerts
  for select to anon using (status <> 'draft');
create policy "Visitors and operators read alerts" on public.alerts
  for select to authenticated using (status <> 'draft' or (select public.is_operator()));
create policy "Operators add alerts" on public.alerts
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change alerts" on public.alerts
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove alerts" on public.alerts
  for delete to authenticated using ((select public.is_operator()));
revoke all on public.alerts from anon, authenticated;
grant select on public.alerts to anon;
grant select, insert, update, delete on public.alerts to authenticated, service_role;

alter table public.alert_messages enable row level security;
create policy "Visitors read the messages of published alerts" on public.alert_messages
  for select to anon using (exists (select 1 from public.alerts a where a.id = alert_id and a.status <> 'draft'));
create policy "Visitors and operators read alert messages" on public.alert_messages
  for select to authenticated
  using ((select public.is_operator()) or exists (select 1 from public.alerts a where a.id = alert_id and a.status <> 'draft'));
revoke all on public.alert_messages from anon, authenticated;
grant select on public.alert_messages to anon, authenticated;
grant select, insert, update, delete on public.alert_messages to service_role;

-- The edit functions ask editable_columns which columns of a table an operator may set. Alerts
-- join them by wrapping the function as it stands, whichever migration last defined it (the
-- pattern of 20261128000200_pages.sql): the other tables' columns stay where they are.
alter function public.editable_columns(text, boolean) rename to editable_columns_besides_alerts;
comment on function public.editable_columns_besides_alerts(text, boolean) is
  'The columns an operator may set on each content table but alerts (public.editable_columns adds alerts).';

create function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = ''
as $$
  select case when target = 'alerts'
    then array['title', 'body', 'level', 'kind', 'area', 'starts_at', 'ends_at', 'status', 'all_clear']
    else public.editable_columns_besides_alerts(target, creating)
  end
$$;
comment on function public.editable_columns(text, boolean) is
  'The columns an operator may set on a content table (and, creating, those a new row may also set); null: not a content table.';

/** Every alert (or the one named) with its messages, as the console lists them: newest first. */
create function public.alert_rows(only_id uuid default null)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select coalesce(jsonb_agg(to_jsonb(a) || jsonb_build_object('messages', coalesce((
           select jsonb_agg(to_jsonb(m) - 'alert_id' order by m.sequence)
             from public.alert_messages m where m.alert_id = a.id), '[]'::jsonb))
         order by a.created_at desc, a.id), '[]'::jsonb)
    from public.alerts a
   where only_id is null or a.id = only_id
$$;
comment on function public.alert_rows(uuid) is
  'Every alert (any status), or the one named, with its messages, newest first, for the console.';

revoke all on function public.alert_stamp_times() from public, anon, authenticated;
revoke all on function public.alert_record_message() from public, anon, authenticated;
revoke all on function public.editable_columns_besides_alerts(text, boolean) from public, anon, authenticated;
revoke all on function public.editable_columns(text, boolean) from public, anon, authenticated;
revoke all on function public.alert_rows(uuid) from public, anon, authenticated;
grant execute on function public.editable_columns_besides_alerts(text, boolean) to service_role;
grant execute on function public.editable_columns(text, boolean) to service_role;
grant execute on function public.alert_rows(uuid) to service_role;
