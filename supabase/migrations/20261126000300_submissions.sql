-- Visitors' suggestions (issue 27): a change to a listing, a new business or an event, kept for an
-- operator to decide in the console's Inbox.
--
-- One way in: public.submit_suggestion(kind, payload, contact), security definer and executable by
-- anon. On Supabase the site's form calls it at /rest/v1/rpc/submit_suggestion with the publishable
-- key; on the embedded store the console serves it at POST /api/public/submissions. It checks the
-- kind, the target, the sizes, the websites and a rate limit, and refuses with SQLSTATE PT400 (bad
-- input) or PT429 (too many), which PostgREST answers as HTTP 400 and 429 with {"message": ...}.
--
-- Privacy: the sender's IP address is never stored. The rate limit counts a salted SHA-256 of it;
-- the salt is a secret only this migration's functions read. The sender's contact details and that
-- hash are deleted 90 days after the decision (forget_submission_senders, run with every submission
-- and every decision).
--
-- Accepting goes through the editing functions (20261125000400_editing.sql), so the table rules,
-- the stale check and the audit trigger hold; the audit entry names the operator and, in
-- audit_log.submission_id, the submission it came from.

create table public.submissions (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('business-update', 'new-business', 'event')),
  business_id uuid references public.businesses (id) on delete set null,
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  contact_name text,
  contact_email text,
  sender_hash text check (sender_hash ~ '^[0-9a-f]{64}$'),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected', 'spam')),
  decided_by text,
  decided_at timestamptz,
  decision_reason text,
  -- The row an accepted submission changed or created (a business or an event).
  applied_row_id text,
  created_at timestamptz not null default now(),
  check ((status = 'pending') = (decided_at is null))
);
comment on table public.submissions is
  'Visitors'' suggestions (business-update, new-business, event), pending until an operator accepts, rejects or marks them as spam.';
comment on column public.submissions.business_id is 'The business a business-update is about.';
comment on column public.submissions.payload is 'The proposed values, by column name, exactly as sent.';
comment on column public.submissions.sender_hash is
  'SHA-256 of a secret salt and the sender''s IP address, for the rate limit; never the address itself.';
comment on column public.submissions.applied_row_id is 'The business or event an accepted submission changed or created.';
create index submissions_pending_idx on public.submissions (status, created_at desc);
create index submissions_sender_idx on public.submissions (sender_hash, created_at);
create index submissions_created_idx on public.submissions (created_at);
create index submissions_decided_idx on public.submissions (decided_at) where sender_hash is not null
  or contact_name is not null or contact_email is not null;

alter table public.submissions enable row level security;
create policy "Operators read submissions" on public.submissions
  for select to authenticated using ((select public.is_operator()));
create policy "Operators decide submissions" on public.submissions
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Service role manages submissions" on public.submissions
  for all to service_role using (true) with check (true);
revoke all on public.submissions from anon, authenticated;
grant select on public.submissions to authenticated;
grant update (status, decided_by, decided_at, decision_reason, applied_row_id) on public.submissions to authenticated;
grant select, insert, update, delete on public.submissions to service_role;

-- The salt of the senders' hashes: made here, once, and readable by nobody but the owner of the
-- functions below (RLS on with no policy, and no grant to any API role, the service role included).
create table public.submission_secrets (
  id boolean primary key default true check (id),
  salt text not null
);
comment on table public.submission_secrets is 'The secret salt of submissions.sender_hash: readable only by submit_suggestion.';
insert into public.submission_secrets (salt)
values (encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text
                                 || clock_timestamp()::text, 'UTF8')), 'hex'));
alter table public.submission_secrets enable row level security;
revoke all on public.submission_secrets from public, anon, authenticated, service_role;

/** The limits of submissions, in one place: sizes and how many an hour. */
create or replace function public.submission_limits()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select jsonb_build_object(
    'per_sender_per_hour', 5,   -- one sender (one IP address)
    'per_hour', 200,            -- everyone together
    'max_bytes', 8192,          -- payload and contact, as JSON text
    'max_field', 2000,          -- characters in one field
    'keep_contact_days', 90)    -- after the decision, then name, email and sender hash are deleted
$$;
comment on function public.submission_limits() is 'The rate limits and sizes submit_suggestion enforces.';

-- Refuses bad input: PostgREST answers SQLSTATE PT400 as HTTP 400 with the message.
create or replace function public.submission_refuse(message text)
returns void
language plpgsql
volatile
set search_path = ''
as $$
begin
  raise exception using errcode = 'PT400', message = message;
end;
$$;

/**
 * The sender's IP address, from the request's headers: what the console says (x-roland-client-ip)
 * when the caller is the service role, else what the proxy in front of PostgREST says
 * (cf-connecting-ip, else the first of x-forwarded-for), else 'unknown'.
 */
create or replace function public.submission_sender_ip()
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  headers jsonb;
  ip text;
begin
  begin
    headers := coalesce(nullif(current_setting('request.headers', true), ''), '{}')::jsonb;
  exception when others then
    headers := '{}'::jsonb;
  end;
  if current_setting('role', true) = 'service_role' then
    ip := headers ->> 'x-roland-client-ip';
  end if;
  ip := coalesce(nullif(btrim(ip), ''), nullif(btrim(headers ->> 'cf-connecting-ip'), ''),
                 nullif(btrim(split_part(headers ->> 'x-forwarded-for', ',', 1)), ''), 'unknown');
  return left(lower(ip), 100);
end;
$$;

/** Deletes the contact details and sender hash of submissions decided more than 90 days ago. */
create or replace function public.forget_submission_senders()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  forgotten integer;
begin
  update public.submissions
     set contact_name = null, contact_email = null, sender_hash = null
   where decided_at < now() - make_interval(days => (public.submission_limits() ->> 'keep_contact_days')::integer)
     and (sender_hash is not null or contact_name is not null or contact_email is not null);
  get diagnostics forgotten = row_count;
  return forgotten;
end;
$$;
comment on function public.forget_submission_senders() is
  'Deletes the name, email and sender hash of submissions decided more than 90 days ago; answers how many.';

/**
 * Takes a visitor's suggestion: checks it and stores it as pending, answering its id. Refuses
 * with PT400 and a message saying what to fix, or PT429 over the rate limit; stores nothing then.
 */
create or replace function public.submit_suggestion(kind text, payload jsonb, contact jsonb default null)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  limits constant jsonb := public.submission_limits();
  allowed text[];
  required text[];
  key text;
  value jsonb;
  target uuid;
  sender text;
  recent integer;
  new_id uuid;
  longest integer;
begin
  if kind is null or kind not in ('business-update', 'new-business', 'event') then
    perform public.submission_refuse(format(
      'Unknown kind %s: a submission is a business-update, a new-business or an event.', coalesce(quote_literal(kind), 'null')));
  end if;
  if payload is null or jsonb_typeof(payload) <> 'object' then
    perform public.submission_refuse('The payload must be a JSON object of fields, such as {"phone": "(501) 555-0123"}.');
  end if;
  if contact is not null and jsonb_typeof(contact) = 'null' then
    contact := null;
  end if;
  if contact is not null and jsonb_typeof(contact) <> 'object' then
    perform public.submission_refuse('contact must be {"name": ..., "email": ...} (both optional), or left out.');
  end if;

  -- Sizes, before anything looks inside.
  if octet_length(payload::text) + coalesce(octet_length(contact::text), 0) > (limits ->> 'max_bytes')::integer then
    perform public.submission_refuse(format(
      'The submission is too large: at most %s KB of text in all. Shorten the descriptions.',
      (limits ->> 'max_bytes')::integer / 1024));
  end if;
  select max(length(v #>> '{}')) into longest
    from jsonb_path_query(payload || coalesce(contact, '{}'::jsonb), 'strict $.** ? (@.type() == "string")') v;
  if longest > (limits ->> 'max_field')::integer then
    perform public.submission_refuse(format(
      'A field is too long: at most %s characters a field. Shorten it.', limits ->> 'max_field'));
  end if;

  -- The fields each kind may carry, named as the database names them.
  allowed := case kind
    when 'business-update' then array['business', 'name', 'category', 'short_description', 'full_description',
      'address', 'phone', 'email', 'website', 'hours', 'services', 'note', 'closed']
    when 'new-business' then array['name', 'category', 'short_description', 'full_description', 'address',
      'phone', 'email', 'website', 'hours', 'services']
    else array['title', 'starts_at', 'ends_at', 'location', 'event_type', 'description']
  end;
  required := case kind
    when 'business-update' then array['business']
    when 'new-business' then array['name']
    else array['title', 'starts_at', 'location', 'event_type']
  end;
  for key, value in select e.key, e.value from jsonb_each(payload) e loop
    if not key = any (allowed) then
      perform public.submission_refuse(format('Unknown field %s for a %s: use %s.', quote_literal(key), kind,
        array_to_string(allowed, ', ')));
    end if;
    if key = 'services' then
      if jsonb_typeof(value) <> 'array' or exists (
           select 1 from jsonb_array_elements(value) s
            where jsonb_typeof(s) <> 'object' or jsonb_typeof(s -> 'service_name') is distinct from 'string'
               or exists (select 1 from jsonb_object_keys(s) k where k not in ('service_name', 'description'))
               or jsonb_typeof(coalesce(s -> 'description', 'null')) not in ('string', 'null')) then
        perform public.submission_refuse('services must be a list of {"service_name": ..., "description": ...}.');
      end if;
    elsif key = 'closed' then
      if value <> 'true'::jsonb then
        perform public.submission_refuse('closed is true (the business has closed or moved), or left out.');
      end if;
    elsif jsonb_typeof(value) not in ('string', 'null') then
      perform public.submission_refuse(format('%s must be text.', key));
    end if;
  end loop;
  foreach key in array required loop
    if nullif(btrim(payload ->> key), '') is null then
      perform public.submission_refuse(format('%s is required for a %s.', key, kind));
    end if;
  end loop;
  if kind = 'business-update'
     and not exists (select 1 from jsonb_object_keys(payload) k where k not in ('business', 'note')) then
    perform public.submission_refuse('Change at least one field, or say that the business has closed or moved.');
  end if;

  -- The rules that protect the site and the people who read it.
  if nullif(btrim(payload ->> 'website'), '') is not null
     and payload ->> 'website' !~* '^https?://[^\s/?#]+(\S*)$' then
    perform public.submission_refuse('The website must be an http:// or https:// address, such as https://example.com.');
  end if;
  if nullif(btrim(payload ->> 'phone'), '') is not null
     and payload ->> 'phone' !~* '^\s*(\+?1[\s.-]?)?(\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(\s*(x|ext\.?|extension)\s*\d{1,6})?\s*$' then
    perform public.submission_refuse('The phone must be a US phone number, such as (501) 555-0123.');
  end if;
  if nullif(btrim(payload ->> 'email'), '') is not null and payload ->> 'email' !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform public.submission_refuse('The email must be an address such as owner@example.com.');
  end if;
  if contact is not null then
    if exists (select 1 from jsonb_each(contact) c
                where c.key not in ('name', 'email') or jsonb_typeof(c.value) not in ('string', 'null')) then
      perform public.submission_refuse('contact must be {"name": ..., "email": ...} (both optional, both text).');
    end if;
    if nullif(btrim(contact ->> 'email'), '') is not null and contact ->> 'email' !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      perform public.submission_refuse('Your email must be an address such as you@example.com, or left out.');
    end if;
  end if;
  if kind = 'event' then
    if payload ->> 'event_type' not in ('Planning', 'Social', 'Business', 'Community', 'Recreation') then
      perform public.submission_refuse('event_type must be one of Planning, Social, Business, Community, Recreation.');
    end if;
    begin
      if nullif(payload ->> 'ends_at', '') is not null
         and (payload ->> 'ends_at')::timestamptz < (payload ->> 'starts_at')::timestamptz then
        perform public.submission_refuse('The end must not be before the start.');
      end if;
      perform (payload ->> 'starts_at')::timestamptz;
    exception when invalid_datetime_format or datetime_field_overflow or invalid_text_representation then
      perform public.submission_refuse('starts_at and ends_at must be ISO 8601 dates and times, such as 2027-07-04T19:00:00-05:00.');
    end;
  end if;

  -- The target: a change needs a business the site lists.
  if kind = 'business-update' then
    select b.id into target from public.businesses b where b.slug = payload ->> 'business' and b.is_active;
    if target is null then
      perform public.submission_refuse(format(
        'No listed business has the address %s: suggest changes to a business the site shows.',
        quote_literal(payload ->> 'business')));
    end if;
  end if;

  -- The rate limit: one sender, and everyone together, per hour. One submission at a time, so
  -- a flood sent all at once cannot slip past the count.
  perform pg_advisory_xact_lock(hashtext('public.submit_suggestion'));
  select encode(sha256(convert_to(s.salt || '|' || public.submission_sender_ip(), 'UTF8')), 'hex')
    into sender from public.submission_secrets s;
  select count(*) into recent from public.submissions
   where sender_hash = sender and created_at > now() - interval '1 hour';
  if recent >= (limits ->> 'per_sender_per_hour')::integer then
    raise exception using errcode = 'PT429', message = format(
      'You have sent %s suggestions in the last hour, the most we take from one sender: please try again in an hour.',
      recent);
  end if;
  select count(*) into recent from public.submissions where created_at > now() - interval '1 hour';
  if recent >= (limits ->> 'per_hour')::integer then
    raise exception using errcode = 'PT429',
      message = 'We have received many suggestions in the last hour: please try again in an hour.';
  end if;

  perform public.forget_submission_senders();
  insert into public.submissions (kind, business_id, payload, contact_name, contact_email, sender_hash)
  values (kind, target, payload, nullif(btrim(contact ->> 'name'), ''), nullif(btrim(contact ->> 'email'), ''), sender)
  returning id into new_id;
  return new_id;
end;
$$;
comment on function public.submit_suggestion(text, jsonb, jsonb) is
  'A visitor''s suggestion: checks kind, target, sizes, websites and the rate limit, and stores it as pending. Errors: PT400, PT429.';

-- The audit trail names the submission an accepted change came from: accept_submission sets
-- roland.submission_id for its transaction and the trigger copies it.
alter table public.audit_log add column submission_id uuid;
comment on column public.audit_log.submission_id is 'The visitor''s submission this change applied, when an operator accepted one.';

create or replace function public.audit_change()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  old_row jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  new_row jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
begin
  if tg_op = 'UPDATE' and old_row - 'updated_at' = new_row - 'updated_at' then
    return null; -- a save that changed nothing is not a change
  end if;
  insert into public.audit_log (actor, table_name, row_id, action, before, after, submission_id)
  values (public.audit_actor(), tg_table_name, coalesce(new_row, old_row) ->> 'id', lower(tg_op), old_row, new_row,
          nullif(current_setting('roland.submission_id', true), '')::uuid);
  return null;
end;
$$;

create or replace function public.audit_entries(
  target text default null,
  row_id text default null,
  max_entries integer default 100
)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'at', a.at, 'actor', a.actor, 'table', a.table_name,
           'row_id', a.row_id, 'action', a.action, 'before', a.before, 'after', a.after, 'txid', a.txid,
           'submission_id', a.submission_id)
           order by a.id desc), '[]'::jsonb)
    from (select * from public.audit_log l
           where (audit_entries.target is null or l.table_name = audit_entries.target)
             and (audit_entries.row_id is null or l.row_id = audit_entries.row_id)
           order by l.id desc
           limit least(greatest(coalesce(max_entries, 100), 1), 1000)) a
$$;

/** One submission as the Inbox shows it: the proposal, and for a change the business as it is now. */
create or replace function public.submission_entry(s public.submissions)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select jsonb_build_object(
    'id', s.id, 'kind', s.kind, 'status', s.status, 'payload', s.payload,
    'target', case when s.business_id is not null then public.content_row('businesses', s.business_id::text) end,
    'contact', jsonb_strip_nulls(jsonb_build_object('name', s.contact_name, 'email', s.contact_email)),
    'decided_by', s.decided_by, 'decided_at', s.decided_at, 'decision_reason', s.decision_reason,
    'applied_row_id', s.applied_row_id, 'created_at', s.created_at)
$$;

/** One submission as the Inbox shows it, by id, or null. */
create or replace function public.submission_by_id(submission uuid)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$ select public.submission_entry(s) from public.submissions s where s.id = submission $$;

/** The submissions of one status (or all), newest first. */
create or replace function public.submission_entries(status text default 'pending', max_entries integer default 200)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(public.submission_entry(s) order by s.created_at desc, s.id), '[]'::jsonb)
    from (select * from public.submissions x
           where submission_entries.status is null or x.status = submission_entries.status
           order by x.created_at desc, x.id
           limit least(greatest(coalesce(max_entries, 200), 1), 1000)) s
$$;

/** How many submissions wait for a decision (the Inbox's count in the navigation). */
create or replace function public.pending_submission_count()
returns integer
language sql
stable
security invoker
set search_path = public, pg_temp
as $$ select count(*)::integer from public.submissions where status = 'pending' $$;

/**
 * Accepts a pending submission by applying `fields` (the values as the operator checked them)
 * through the editing functions: edit_row for a business-update (refused as a conflict when the
 * business changed since expected_updated_at), create_row for a new business or event. The
 * change's audit entries name the operator and the submission. Answers the edit's outcome, or
 * {status: 'decided'} when someone decided it already.
 */
create or replace function public.accept_submission(
  submission uuid,
  fields jsonb,
  expected_updated_at timestamptz default null,
  actor jsonb default null
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  s public.submissions;
  outcome jsonb;
begin
  select * into s from public.submissions where id = submission for update;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if s.status <> 'pending' then
    return jsonb_build_object('status', 'decided', 'submission', public.submission_entry(s));
  end if;
  perform public.act_as(actor);
  perform set_config('roland.submission_id', s.id::text, true);
  if s.kind = 'business-update' then
    if s.business_id is null then
      outcome := jsonb_build_object('status', 'not_found');
    else
      outcome := public.edit_row('businesses', s.business_id::text, fields, expected_updated_at, actor);
    end if;
  else
    outcome := public.create_row(case s.kind when 'event' then 'community_events' else 'businesses' end, fields, actor);
  end if;
  perform set_config('roland.submission_id', '', true);
  perform public.forget_submission_senders();
  if outcome ->> 'status' = 'ok' then
    update public.submissions
       set status = 'accepted', decided_by = public.audit_actor(), decided_at = now(), applied_row_id = outcome #>> '{row,id}'
     where id = s.id
     returning * into s;
    outcome := outcome || jsonb_build_object('submission', public.submission_entry(s));
  end if;
  return outcome;
end;
$$;

/** Rejects a pending submission with a reason, or marks it as spam. */
create or replace function public.decide_submission(
  submission uuid,
  decision text,
  reason text default null,
  actor jsonb default null
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  s public.submissions;
begin
  if decision not in ('rejected', 'spam') then
    return public.invalid_outcome('The decision is rejected or spam (accepting applies the change: accept_submission)', null);
  end if;
  if decision = 'rejected' and nullif(btrim(reason), '') is null then
    return public.invalid_outcome('Give a reason for rejecting it', null);
  end if;
  select * into s from public.submissions where id = submission for update;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if s.status <> 'pending' then
    return jsonb_build_object('status', 'decided', 'submission', public.submission_entry(s));
  end if;
  perform public.act_as(actor);
  perform public.forget_submission_senders();
  update public.submissions
     set status = decision, decided_by = public.audit_actor(), decided_at = now(),
         decision_reason = nullif(btrim(reason), '')
   where id = s.id
   returning * into s;
  return jsonb_build_object('status', 'ok', 'submission', public.submission_entry(s));
end;
$$;

revoke all on function public.submit_suggestion(text, jsonb, jsonb) from public;
grant execute on function public.submit_suggestion(text, jsonb, jsonb) to anon, authenticated, service_role;
do $$
declare
  f text;
begin
  foreach f in array array['submission_limits()', 'submission_refuse(text)', 'submission_sender_ip()',
    'forget_submission_senders()', 'submission_entry(public.submissions)', 'submission_by_id(uuid)',
    'submission_entries(text, integer)',
    'pending_submission_count()', 'accept_submission(uuid, jsonb, timestamptz, jsonb)',
    'decide_submission(uuid, text, text, jsonb)'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;
