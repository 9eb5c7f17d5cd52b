-- "Notify me" (issue 48): residents subscribe by email, with no account, to the town's alerts (each
-- published alert and its "All clear", at once) and to a weekly digest of events.
--
-- One way in: public.subscribe(email, topics), security definer and executable by anon, with the
-- suggestions' sizes and rate limits (submission_limits(), the salted hash of the sender's IP;
-- no IP address is stored). Each rule is a small function of its own (subscription_email_problem,
-- subscription_topics_problem, subscription_rate_problem), so a later migration can replace one
-- rule alone. The answer is the same for a new, a pending and a confirmed address: nothing.
--
-- Double opt-in: subscribing queues a confirmation email (at most one a day per address); nothing
-- else is sent until the confirmation's token comes back (confirm_subscription). Unconfirmed
-- addresses go after 7 days. Tokens are random, made when the sender takes the message (so the
-- visitor who called subscribe never sees one), and stored only as SHA-256 hashes.
--
-- The outbox: one row per message, queued in one statement for every subscriber of a topic, sent
-- by the console's scheduler or `roland notify send`: claim_outbox takes a batch (status sending,
-- noting the claiming process), the sender sends each and records it at once (outbox_sent, or
-- outbox_failed with the SMTP reply code). A process killed mid-batch leaves rows in `sending`,
-- which release_outbox_claims puts back, so every message goes out and none recorded as sent
-- goes out again.
--
-- Privacy: subscribers and the outbox are readable by admins and the service role (the sender)
-- only; anon and editors read neither.

create table public.subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null unique check (email = lower(btrim(email)) and length(email) between 6 and 254),
  topics text[] not null default '{}' check (topics <@ array['alerts', 'events']),
  requested_topics text[] not null default '{}' check (requested_topics <@ array['alerts', 'events']),
  status text not null default 'pending' check (status in ('pending', 'confirmed')),
  confirm_token_hash text check (confirm_token_hash ~ '^[0-9a-f]{64}$'),
  confirmation_sent_at timestamptz,
  hard_failures integer not null default 0 check (hard_failures >= 0),
  stopped_at timestamptz,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  updated_at timestamptz not null default now(),
  check ((status = 'confirmed') = (confirmed_at is not null))
);
comment on table public.subscribers is
  'Residents who asked for email (Notify me): pending until they confirm, then sent the topics they chose.';
comment on column public.subscribers.email is 'The address, lower-cased; readable only by admins and the sender (service role).';
comment on column public.subscribers.topics is 'What a confirmed subscriber receives: alerts, events (the weekly digest).';
comment on column public.subscribers.requested_topics is 'Topics asked for and not yet confirmed.';
comment on column public.subscribers.confirm_token_hash is 'SHA-256 of the token in the last confirmation email; the token itself is never stored.';
comment on column public.subscribers.confirmation_sent_at is 'When the last confirmation email was queued: at most one a day.';
comment on column public.subscribers.hard_failures is 'Permanent (5xx) failures in a row; three stop mail to the address.';
comment on column public.subscribers.stopped_at is 'When three hard failures in a row stopped mail to the address.';
create index subscribers_pending_idx on public.subscribers (created_at) where status = 'pending';
create trigger subscribers_updated_at before update on public.subscribers
  for each row execute function public.set_updated_at();

-- The rate limit's memory: one row per subscribe call, with the sender's salted hash, for an hour.
create table public.subscription_attempts (
  id bigint generated always as identity primary key,
  sender_hash text not null check (sender_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);
comment on table public.subscription_attempts is
  'Each subscribe call''s salted sender hash, kept an hour for the rate limit; never an IP address.';
create index subscription_attempts_sender_idx on public.subscription_attempts (sender_hash, created_at);
create index subscription_attempts_created_idx on public.subscription_attempts (created_at);

create table public.notify_digests (
  id uuid primary key default gen_random_uuid(),
  week date not null unique,
  content jsonb not null check (jsonb_typeof(content) = 'object'),
  created_at timestamptz not null default now()
);
comment on table public.notify_digests is
  'The weekly events digest, one row a week (its Monday in the town''s zone): what every events subscriber gets.';

create table public.outbox (
  id bigint generated always as identity primary key,
  subscriber_id uuid references public.subscribers (id) on delete set null,
  alert_id uuid references public.alerts (id) on delete cascade,
  digest_id uuid references public.notify_digests (id) on delete cascade,
  kind text not null check (kind in ('confirm', 'alert', 'all-clear', 'digest')),
  status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  claimed_at timestamptz,
  claimed_by text,
  last_error text,
  unsubscribe_token_hash text check (unsubscribe_token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  check ((status = 'sent') = (sent_at is not null)),
  check ((kind = 'digest') = (digest_id is not null)),
  check ((kind in ('alert', 'all-clear')) = (alert_id is not null))
);
comment on table public.outbox is
  'One row per email: queued, sending (claimed by a sender process), sent or failed; retried with backoff for a day.';
comment on column public.outbox.claimed_by is 'The sending process (host:pid) while the row is sending.';
comment on column public.outbox.unsubscribe_token_hash is 'SHA-256 of the one-click unsubscribe token in this email.';
create index outbox_due_idx on public.outbox (next_attempt_at) where status = 'queued';
create index outbox_sending_idx on public.outbox (claimed_by) where status = 'sending';
-- Partial where a queued row has nothing yet, so queueing thousands of messages writes fewer index entries.
create index outbox_claimed_idx on public.outbox (claimed_at) where claimed_at is not null;
create index outbox_alert_idx on public.outbox (alert_id, status);
create index outbox_subscriber_idx on public.outbox (subscriber_id);
create unique index outbox_token_idx on public.outbox (unsubscribe_token_hash) where unsubscribe_token_hash is not null;

alter table public.subscribers enable row level security;
alter table public.subscription_attempts enable row level security;
alter table public.notify_digests enable row level security;
alter table public.outbox enable row level security;
create policy "Admins read subscribers" on public.subscribers
  for select to authenticated using ((select public.is_admin()));
create policy "Admins delete subscribers" on public.subscribers
  for delete to authenticated using ((select public.is_admin()));
create policy "Service role manages subscribers" on public.subscribers
  for all to service_role using (true) with check (true);
create policy "Admins read the outbox" on public.outbox
  for select to authenticated using ((select public.is_admin()));
create policy "Service role manages the outbox" on public.outbox
  for all to service_role using (true) with check (true);
create policy "Operators read digests" on public.notify_digests
  for select to authenticated using ((select public.is_operator()));
create policy "Service role manages digests" on public.notify_digests
  for all to service_role using (true) with check (true);
create policy "Service role manages subscription attempts" on public.subscription_attempts
  for all to service_role using (true) with check (true);
revoke all on public.subscribers, public.outbox, public.notify_digests, public.subscription_attempts
  from anon, authenticated;
grant select, delete on public.subscribers to authenticated;
grant select on public.outbox, public.notify_digests to authenticated;
grant select, insert, update, delete on public.subscribers, public.outbox, public.notify_digests,
  public.subscription_attempts to service_role;

/** The limits of subscriptions: the suggestions' rate limits and field size, and the mail's own. */
create or replace function public.subscription_limits()
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select public.submission_limits() || jsonb_build_object(
    'max_email', 254,                 -- characters in an address (RFC 5321's path limit)
    'confirmations_per_day', 1,       -- confirmation emails to one address
    'keep_unconfirmed_days', 7,       -- then an unconfirmed address is deleted
    'retry_hours', 24,                -- a message answered 4xx is retried this long
    'hard_failures_stop', 3)          -- permanent failures in a row that stop mail to an address
$$;
comment on function public.subscription_limits() is
  'The sizes and rate limits subscribe enforces (submission_limits() and the mail''s own).';

/** Why an email address cannot be subscribed (shape and size), or null. */
create or replace function public.subscription_email_problem(email text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when email is null or btrim(email) = '' then 'Enter your email address, such as you@example.com.'
    when length(btrim(email)) > (public.subscription_limits() ->> 'max_email')::integer then
      format('The email address is too long: at most %s characters.', public.subscription_limits() ->> 'max_email')
    when btrim(email) !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$' then 'The email must be an address such as you@example.com.'
  end
$$;
comment on function public.subscription_email_problem(text) is 'Why an address cannot be subscribed (shape, size), or null.';

/** Why a list of topics cannot be subscribed to, or null. */
create or replace function public.subscription_topics_problem(topics jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when topics is null or jsonb_typeof(topics) <> 'array' or jsonb_array_length(topics) = 0 then
      'Choose at least one topic: "alerts" (town alerts, at once) or "events" (the weekly events digest).'
    when exists (select 1 from jsonb_array_elements(topics) t
                  where jsonb_typeof(t) <> 'string' or t #>> '{}' not in ('alerts', 'events')) then
      'The topics are "alerts" and "events": send a list of one or both, such as ["alerts"].'
  end
$$;
comment on function public.subscription_topics_problem(jsonb) is 'Why a list of topics cannot be taken, or null.';

/**
 * Why a sender may not subscribe now (the suggestions' rate limit: per sender and for everyone, an
 * hour), or null; counts this call when it may.
 */
create or replace function public.subscription_rate_problem(sender text)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  limits constant jsonb := public.subscription_limits();
  recent integer;
begin
  -- One at a time, so a flood sent all at once cannot slip past the count.
  perform pg_advisory_xact_lock(hashtext('public.subscribe'));
  delete from public.subscription_attempts where created_at < now() - interval '1 hour';
  select count(*) into recent from public.subscription_attempts where sender_hash = sender;
  if recent >= (limits ->> 'per_sender_per_hour')::integer then
    return format('You have asked %s times in the last hour, the most we take from one sender: please try again in an hour.', recent);
  end if;
  select count(*) into recent from public.subscription_attempts;
  if recent >= (limits ->> 'per_hour')::integer then
    return 'We have had many requests in the last hour: please try again in an hour.';
  end if;
  insert into public.subscription_attempts (sender_hash) values (sender);
  return null;
end;
$$;
comment on function public.subscription_rate_problem(text) is
  'Why a sender (a salted hash) may not subscribe now, or null; counts the call when it may.';

/** Deletes the addresses left unconfirmed for 7 days; answers how many. */
create or replace function public.forget_unconfirmed_subscribers()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  forgotten integer;
begin
  delete from public.outbox o using public.subscribers s
   where o.subscriber_id = s.id and o.status in ('queued', 'failed') and s.status = 'pending'
     and s.created_at < now() - make_interval(days => (public.subscription_limits() ->> 'keep_unconfirmed_days')::integer);
  delete from public.subscribers s
   where s.status = 'pending'
     and s.created_at < now() - make_interval(days => (public.subscription_limits() ->> 'keep_unconfirmed_days')::integer);
  get diagnostics forgotten = row_count;
  return forgotten;
end;
$$;
comment on function public.forget_unconfirmed_subscribers() is 'Deletes addresses unconfirmed for 7 days; answers how many.';

/**
 * Takes a visitor's request for email: checks the address, the topics and the rate limit, then
 * records the address as pending (or, for a confirmed one, the new topics asked for) and queues
 * a confirmation email unless one was queued in the last day. Answers nothing, the same for a new,
 * a pending and a confirmed address. Refuses with PT400 (bad input) or PT429 (too many).
 */
create or replace function public.subscribe(email text, topics jsonb)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  problem text;
  address text := lower(btrim(email));
  wanted text[];
  sender text;
  s public.subscribers;
begin
  problem := public.subscription_email_problem(email);
  if problem is not null then
    raise exception using errcode = 'PT400', message = problem;
  end if;
  problem := public.subscription_topics_problem(topics);
  if problem is not null then
    raise exception using errcode = 'PT400', message = problem;
  end if;
  select encode(sha256(convert_to(x.salt || '|' || public.submission_sender_ip(), 'UTF8')), 'hex')
    into sender from public.submission_secrets x;
  problem := public.subscription_rate_problem(sender);
  if problem is not null then
    raise exception using errcode = 'PT429', message = problem;
  end if;
  perform public.forget_unconfirmed_subscribers();

  select array_agg(distinct t order by t) into wanted from jsonb_array_elements_text(topics) t;
  insert into public.subscribers as x (email, requested_topics)
  values (address, wanted)
  on conflict on constraint subscribers_email_key do update
     set requested_topics = (select coalesce(array_agg(distinct t order by t), '{}')
                               from unnest(x.requested_topics || excluded.requested_topics) t
                              where not t = any (x.topics))
  returning * into s;
  -- A confirmed subscriber who asked for nothing new gets nothing; anyone else one confirmation a day.
  if s.status = 'confirmed' and cardinality(s.requested_topics) = 0 then
    return;
  end if;
  if s.confirmation_sent_at is not null and s.confirmation_sent_at > now() - interval '1 day' then
    return;
  end if;
  update public.subscribers set confirmation_sent_at = now() where id = s.id;
  insert into public.outbox (subscriber_id, kind) values (s.id, 'confirm');
end;
$$;
comment on function public.subscribe(text, jsonb) is
  'A visitor''s request for email: checks address, topics and the rate limit, records it pending and queues one confirmation a day. Errors: PT400, PT429.';

/**
 * Confirms a subscription by the token of its confirmation email: its topics become those asked
 * for. Answers {status: 'confirmed', topics} or {status: 'unknown'} (a wrong or old token).
 */
create or replace function public.confirm_subscription(token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  s public.subscribers;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{20,100}$' then
    return jsonb_build_object('status', 'unknown');
  end if;
  update public.subscribers x
     set status = 'confirmed', confirmed_at = coalesce(x.confirmed_at, now()),
         topics = (select coalesce(array_agg(distinct t order by t), '{}') from unnest(x.topics || x.requested_topics) t),
         requested_topics = '{}', confirm_token_hash = null, stopped_at = null, hard_failures = 0
   where x.confirm_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex')
   returning * into s;
  if not found then
    return jsonb_build_object('status', 'unknown');
  end if;
  return jsonb_build_object('status', 'confirmed', 'topics', to_jsonb(s.topics));
end;
$$;
comment on function public.confirm_subscription(text) is
  'Confirms the subscription whose confirmation email carried the token: {status: confirmed, topics} or {status: unknown}.';

/** Deletes a subscriber and every message not yet sent to them (the sent ones are kept, unnamed, for delivery counts). */
create or replace function public.delete_subscriber(subscriber uuid)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  delete from public.outbox o where o.subscriber_id = subscriber and o.status = 'queued';
  delete from public.subscribers s where s.id = subscriber;
  return found;
end;
$$;
comment on function public.delete_subscriber(uuid) is 'Deletes a subscriber and their queued messages; answers whether one was deleted.';

/**
 * Unsubscribes by the token of any email sent to the address: from the `topics` given, or from
 * everything when topics is null (then the address is deleted). Answers {status: 'unsubscribed',
 * topics (those left)} or {status: 'unknown'}.
 */
create or replace function public.unsubscribe(token text, topics jsonb default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  subscriber uuid;
  s public.subscribers;
  problem text;
begin
  if token is null or token !~ '^[A-Za-z0-9_-]{20,100}$' then
    return jsonb_build_object('status', 'unknown');
  end if;
  select o.subscriber_id into subscriber from public.outbox o
   where o.unsubscribe_token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex');
  if subscriber is null then
    -- The token of an email sent to an address already gone: it is unsubscribed all the same.
    return case when found then jsonb_build_object('status', 'unsubscribed', 'topics', '[]'::jsonb)
                else jsonb_build_object('status', 'unknown') end;
  end if;
  if topics is not null and jsonb_typeof(topics) <> 'null' then
    problem := public.subscription_topics_problem(topics);
    if problem is not null then
      raise exception using errcode = 'PT400', message = problem;
    end if;
    update public.subscribers x
       set topics = array(select t from unnest(x.topics) t
                           where not t = any (array(select jsonb_array_elements_text(unsubscribe.topics)))),
           requested_topics = array(select t from unnest(x.requested_topics) t
                           where not t = any (array(select jsonb_array_elements_text(unsubscribe.topics))))
     where x.id = subscriber
     returning * into s;
    if cardinality(s.topics) > 0 or cardinality(s.requested_topics) > 0 then
      delete from public.outbox o
       where o.subscriber_id = subscriber and o.status = 'queued'
         and ((o.kind in ('alert', 'all-clear') and not 'alerts' = any (s.topics))
              or (o.kind = 'digest' and not 'events' = any (s.topics)));
      return jsonb_build_object('status', 'unsubscribed', 'topics', to_jsonb(s.topics));
    end if;
  end if;
  perform public.delete_subscriber(subscriber);
  return jsonb_build_object('status', 'unsubscribed', 'topics', '[]'::jsonb);
end;
$$;
comment on function public.unsubscribe(text, jsonb) is
  'Unsubscribes the address an email''s token names: from the topics given, or from everything (deleting it).';

/**
 * Queues the weekly digest for every confirmed events subscriber, once a week: answers how many
 * messages were queued (0 when the week's digest was queued already).
 */
create or replace function public.queue_digest(week date, content jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  digest uuid;
  queued integer;
begin
  insert into public.notify_digests (week, content) values (week, content)
  on conflict on constraint notify_digests_week_key do nothing
  returning id into digest;
  if digest is null then
    return 0;
  end if;
  insert into public.outbox (subscriber_id, digest_id, kind)
  select s.id, digest, 'digest' from public.subscribers s
   where s.status = 'confirmed' and 'events' = any (s.topics) and s.stopped_at is null;
  get diagnostics queued = row_count;
  return queued;
end;
$$;
comment on function public.queue_digest(date, jsonb) is
  'Queues a week''s events digest for every confirmed events subscriber, once a week; answers how many.';

/** Puts back the messages that processes now gone had claimed (a sender killed mid-batch). */
create or replace function public.release_outbox_claims(claimers jsonb)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  released integer;
begin
  update public.outbox o
     set status = 'queued', claimed_by = null, next_attempt_at = now()
   where o.status = 'sending'
     and (o.claimed_by in (select jsonb_array_elements_text(claimers))
          -- A claim older than an hour: its process is gone wherever it ran.
          or o.claimed_at < now() - interval '1 hour');
  get diagnostics released = row_count;
  return released;
end;
$$;
comment on function public.release_outbox_claims(jsonb) is
  'Puts back into the queue the messages claimed by the processes named (gone), and claims older than an hour.';

/** The processes that hold claimed messages (host:pid), for the sender to tell the gone from the living. */
create or replace function public.outbox_claimers()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(distinct o.claimed_by), '[]'::jsonb) from public.outbox o where o.status = 'sending'
$$;

/** What an email of the outbox says, beyond its kind: the alert or the digest. */
create or replace function public.outbox_content(message public.outbox)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if message.digest_id is not null then
    return (select d.content || jsonb_build_object('week', d.week) from public.notify_digests d where d.id = message.digest_id);
  end if;
  if message.alert_id is not null then
    return (select jsonb_build_object('id', a.id, 'title', a.title, 'body', a.body, 'level', a.level, 'kind', a.kind,
                     'area', a.area, 'starts_at', a.starts_at, 'ends_at', a.ends_at, 'status', a.status,
                     'end_message', a.all_clear)
              from public.alerts a where a.id = message.alert_id);
  end if;
  return null;
end;
$$;

/**
 * Claims up to `batch` due messages for the process `claimer` (host:pid), within `per_minute`
 * messages claimed in the last minute by anyone, and makes each one's tokens: answers
 * [{id, kind, email, topics, unsubscribe_token, confirm_token, content}]. Messages to an
 * address that is gone or stopped are failed on the way.
 */
create or replace function public.claim_outbox(claimer text, batch integer, per_minute integer)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  room integer;
  claimed jsonb := '[]'::jsonb;
  m public.outbox;
  s public.subscribers;
  unsubscribe_token text;
  confirm_token text;
begin
  perform pg_advisory_xact_lock(hashtext('public.claim_outbox'));
  perform public.forget_unconfirmed_subscribers();
  -- Messages to an address deleted or stopped since they were queued go nowhere.
  update public.outbox o set status = 'failed', last_error = 'The address was unsubscribed or stopped.'
   where o.status = 'queued' and o.next_attempt_at <= now()
     and (o.subscriber_id is null
          or exists (select 1 from public.subscribers x where x.id = o.subscriber_id and x.stopped_at is not null));
  select greatest(0, least(batch, per_minute - count(*)))::integer into room
    from public.outbox o where o.claimed_at > now() - interval '1 minute';
  for m in
    select * from public.outbox o
     where o.status = 'queued' and o.next_attempt_at <= now()
     -- Alerts first, then confirmations, then digests.
     order by case o.kind when 'confirm' then 1 when 'digest' then 2 else 0 end, o.next_attempt_at, o.id
     limit room
     for update skip locked
  loop
    select * into s from public.subscribers x where x.id = m.subscriber_id;
    unsubscribe_token := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
    confirm_token := null;
    if m.kind = 'confirm' then
      confirm_token := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
      update public.subscribers x set confirm_token_hash = encode(sha256(convert_to(confirm_token, 'UTF8')), 'hex')
       where x.id = s.id;
    end if;
    update public.outbox o
       set status = 'sending', claimed_by = claimer, claimed_at = now(), attempts = o.attempts + 1,
           unsubscribe_token_hash = encode(sha256(convert_to(unsubscribe_token, 'UTF8')), 'hex')
     where o.id = m.id
     returning * into m;
    claimed := claimed || jsonb_build_array(jsonb_build_object(
      'id', m.id, 'kind', m.kind, 'email', s.email,
      'topics', to_jsonb(case when m.kind = 'confirm' then s.requested_topics else s.topics end),
      'unsubscribe_token', unsubscribe_token, 'confirm_token', confirm_token,
      'attempts', m.attempts, 'content', public.outbox_content(m)));
  end loop;
  return claimed;
end;
$$;
comment on function public.claim_outbox(text, integer, integer) is
  'Claims due messages for a sender process within the per-minute limit, making each one''s tokens.';

/** Records a message as sent (only while this process holds it): answers whether it did. */
create or replace function public.outbox_sent(message bigint, claimer text)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  subscriber uuid;
begin
  update public.outbox o set status = 'sent', sent_at = now(), claimed_by = null, last_error = null
   where o.id = message and o.status = 'sending' and o.claimed_by = claimer
   returning o.subscriber_id into subscriber;
  if not found then
    return false;
  end if;
  update public.subscribers s set hard_failures = 0 where s.id = subscriber and s.hard_failures > 0;
  return true;
end;
$$;

/**
 * Records a message the SMTP server refused: `permanent` (a 5xx) fails it and counts a hard
 * failure of the address (three in a row stop its mail); otherwise it is retried with backoff
 * (a minute, doubling, at most an hour) until it is a day old, then failed.
 */
create or replace function public.outbox_failed(message bigint, claimer text, permanent boolean, error text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  m public.outbox;
  limits constant jsonb := public.subscription_limits();
begin
  select * into m from public.outbox o where o.id = message and o.status = 'sending' and o.claimed_by = claimer for update;
  if not found then
    return 'not-claimed';
  end if;
  if permanent or m.created_at < now() - make_interval(hours => (limits ->> 'retry_hours')::integer) then
    update public.outbox o set status = 'failed', claimed_by = null, last_error = left(error, 1000) where o.id = m.id;
    if permanent then
      update public.subscribers s
         set hard_failures = s.hard_failures + 1,
             stopped_at = case when s.hard_failures + 1 >= (limits ->> 'hard_failures_stop')::integer
                               then coalesce(s.stopped_at, now()) end
       where s.id = m.subscriber_id;
    end if;
    return 'failed';
  end if;
  update public.outbox o
     set status = 'queued', claimed_by = null, last_error = left(error, 1000),
         next_attempt_at = now() + least(interval '1 hour', interval '1 minute' * power(2, greatest(m.attempts - 1, 0)))
   where o.id = m.id;
  return 'retry';
end;
$$;
comment on function public.outbox_failed(bigint, text, boolean, text) is
  'Records an SMTP refusal: a permanent one fails the message and counts against the address; else a retry with backoff for a day.';

/** Subscribers per topic and status, counts only. */
create or replace function public.subscriber_counts()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'alerts', (select count(*) from public.subscribers s where s.status = 'confirmed' and 'alerts' = any (s.topics) and s.stopped_at is null),
    'events', (select count(*) from public.subscribers s where s.status = 'confirmed' and 'events' = any (s.topics) and s.stopped_at is null),
    'pending', (select count(*) from public.subscribers s where s.status = 'pending'),
    'stopped', (select count(*) from public.subscribers s where s.stopped_at is not null))
$$;
comment on function public.subscriber_counts() is 'Confirmed subscribers per topic, pending and stopped addresses: counts only.';

/** Finds a subscriber by exact address (an admin's answer to "delete my address"), or null. */
create or replace function public.find_subscriber(email text)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object('id', s.id, 'email', s.email, 'status', s.status, 'topics', to_jsonb(s.topics),
           'requested_topics', to_jsonb(s.requested_topics), 'created_at', s.created_at,
           'confirmed_at', s.confirmed_at, 'stopped_at', s.stopped_at)
    from public.subscribers s where s.email = lower(btrim(find_subscriber.email))
$$;

/** Each alert's delivery: [{alert_id, kind, total, sent, failed, queued}]; and failures of the last week. */
create or replace function public.outbox_delivery()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'alerts', coalesce((
      select jsonb_agg(jsonb_build_object('alert_id', d.alert_id, 'kind', d.kind, 'total', d.total,
               'sent', d.sent, 'failed', d.failed, 'queued', d.total - d.sent - d.failed) order by d.alert_id, d.kind)
        from (select o.alert_id, o.kind, count(*)::integer as total,
                     (count(*) filter (where o.status = 'sent'))::integer as sent,
                     (count(*) filter (where o.status = 'failed'))::integer as failed
                from public.outbox o where o.alert_id is not null group by o.alert_id, o.kind) d), '[]'::jsonb),
    'failed_last_week', (select count(*) from public.outbox o
                          where o.status = 'failed' and o.created_at > now() - interval '7 days'),
    'queued', (select count(*) from public.outbox o where o.status in ('queued', 'sending')))
$$;
comment on function public.outbox_delivery() is 'Per alert and kind: messages queued, sent and failed; failures of the last week; all queued.';

revoke all on function public.subscribe(text, jsonb) from public;
grant execute on function public.subscribe(text, jsonb) to anon, authenticated, service_role;
do $$
declare
  f text;
begin
  foreach f in array array['subscription_limits()', 'subscription_email_problem(text)',
    'subscription_topics_problem(jsonb)', 'subscription_rate_problem(text)', 'forget_unconfirmed_subscribers()',
    'confirm_subscription(text)', 'delete_subscriber(uuid)', 'unsubscribe(text, jsonb)', 'queue_digest(date, jsonb)',
    'release_outbox_claims(jsonb)', 'outbox_claimers()', 'outbox_content(public.outbox)',
    'claim_outbox(text, integer, integer)', 'outbox_sent(bigint, text)',
    'outbox_failed(bigint, text, boolean, text)', 'subscriber_counts()', 'find_subscriber(text)',
    'outbox_delivery()'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;

/** The businesses listed since an instant, for the weekly digest: [{slug, name, category}]. */
create or replace function public.businesses_added_since(since timestamptz)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('slug', b.slug, 'name', b.name, 'category', b.category)
                            order by b.created_at, b.name), '[]'::jsonb)
    from public.businesses b where b.is_active and b.created_at >= since
$$;
comment on function public.businesses_added_since(timestamptz) is 'Active businesses created since an instant (the digest''s "New this week").';
revoke all on function public.businesses_added_since(timestamptz) from public, anon, authenticated;
grant execute on function public.businesses_added_since(timestamptz) to service_role;

/** The addresses the weekly digest goes to (confirmed events subscribers), for `roland notify digest --dry-run`. */
create or replace function public.digest_recipients()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(s.email order by s.email), '[]'::jsonb) from public.subscribers s
   where s.status = 'confirmed' and 'events' = any (s.topics) and s.stopped_at is null
$$;
comment on function public.digest_recipients() is 'The confirmed events subscribers'' addresses.';
revoke all on function public.digest_recipients() from public, anon, authenticated;
grant execute on function public.digest_recipients() to service_role;

/**
 * Queues an alert's email for every confirmed alerts subscriber, in the transaction that publishes
 * it (one insert ... select, whatever the number of subscribers), and its "All clear" in the one
 * that ends it. A trigger, so the console, the CLI and SQL by hand all queue alike.
 */
create or replace function public.alert_queue_emails()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  message_kind text;
begin
  if new.status = 'published' and (tg_op = 'INSERT' or old.status = 'draft') then
    message_kind := 'alert';
  elsif new.status = 'ended' and tg_op = 'UPDATE' and old.status = 'published' then
    message_kind := 'all-clear';
  else
    return null;
  end if;
  -- The "All clear" goes to those who were told of the alert and still take alerts.
  insert into public.outbox (subscriber_id, alert_id, kind)
  select s.id, new.id, message_kind from public.subscribers s
   where s.status = 'confirmed' and 'alerts' = any (s.topics) and s.stopped_at is null
     and (message_kind = 'alert' or exists (
           select 1 from public.outbox o where o.alert_id = new.id and o.kind = 'alert' and o.subscriber_id = s.id));
  return null;
end;
$$;
comment on function public.alert_queue_emails() is
  'Queues the alert email (on publish) or the All clear (on end) for every confirmed alerts subscriber.';
create trigger alerts_queue_emails after insert or update of status on public.alerts
  for each row execute function public.alert_queue_emails();
revoke all on function public.alert_queue_emails() from public, anon, authenticated;

/** The alerts in force now, for the weekly digest: [{id, title, level}], emergencies first. */
create or replace function public.digest_alerts()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'title', a.title, 'level', a.level)
           order by case a.level when 'emergency' then 0 when 'advisory' then 1 else 2 end, a.starts_at desc), '[]'::jsonb)
    from public.alerts a
   where a.status = 'published' and a.starts_at <= now() and (a.ends_at is null or a.ends_at > now())
$$;
comment on function public.digest_alerts() is 'The published alerts in force now, emergencies first.';
revoke all on function public.digest_alerts() from public, anon, authenticated;
grant execute on function public.digest_alerts() to service_role;
