-- The rules of a visitor's suggestion, one function each (issue 51), so a later migration that
-- changes one rule redefines only that function (create or replace, same signature) and not all
-- of submit_suggestion, as 20261128001200_suggestion_phone_by_country.sql had to. Each answers the
-- message to refuse with, or null:
--   suggestion_size_problem(payload, contact)  the whole size and each field's (submission_limits())
--   suggested_website_problem(website)         an http(s) address
--   suggested_phone_problem(phone)             the town's country's numbers (20261128001200, kept)
--   suggested_email_problem(email, label, eg)  an address with an @ and a dot
--   suggestion_rate_problem(sender)            one sender's and everyone's suggestions an hour (PT429)
-- submit_suggestion keeps the order of the checks, the messages and the errors it had; it checks
-- the kind, the fields each kind takes and the event's own fields itself, and takes the lock
-- that keeps a flood from slipping past the rate limit. The README's "Suggestions from visitors"
-- shows a migration that changes only the phone rule; scripts/test/suggestion-rules.test.ts applies it.

/** Why a suggestion is too large (its text in all, or one field), or null. */
create or replace function public.suggestion_size_problem(payload jsonb, contact jsonb)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when octet_length(payload::text) + coalesce(octet_length(contact::text), 0) > (l ->> 'max_bytes')::integer then
      format('The submission is too large: at most %s KB of text in all. Shorten the descriptions.',
        (l ->> 'max_bytes')::integer / 1024)
    when (select max(length(v #>> '{}'))
            from jsonb_path_query(payload || coalesce(contact, '{}'::jsonb), 'strict $.** ? (@.type() == "string")') v)
         > (l ->> 'max_field')::integer then
      format('A field is too long: at most %s characters a field. Shorten it.', l ->> 'max_field')
  end
  from (select public.submission_limits() as l) limits
$$;
comment on function public.suggestion_size_problem(jsonb, jsonb) is
  'Why a visitor''s suggestion is too large (submission_limits: max_bytes, max_field), or null.';

/** Why a suggested website cannot be linked to (not http or https), or null. */
create or replace function public.suggested_website_problem(website text)
returns text
language sql
immutable
security definer
set search_path = ''
as $$
  select case when website !~* '^https?://[^\s/?#]+(\S*)$'
    then 'The website must be an http:// or https:// address, such as https://example.com.' end
$$;
comment on function public.suggested_website_problem(text) is
  'Why a visitor''s suggested website cannot be taken (only http:// and https://), or null.';

/** Why an email address cannot be one, in words naming the field (label) and an example, or null. */
create or replace function public.suggested_email_problem(email text, label text, example text)
returns text
language sql
immutable
security definer
set search_path = ''
as $$
  select case when email !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'
    then format('%s must be an address such as %s.', label, example) end
$$;
comment on function public.suggested_email_problem(text, text, text) is
  'Why a visitor''s email (the business''s or their own) is no address, or null.';

/**
 * Why a sender may not suggest more now: they sent per_sender_per_hour in the last hour, or
 * everyone together per_hour (submission_limits()); null otherwise. submit_suggestion answers PT429.
 */
create or replace function public.suggestion_rate_problem(sender text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  limits constant jsonb := public.submission_limits();
  recent integer;
begin
  select count(*) into recent from public.submissions
   where sender_hash = sender and created_at > now() - interval '1 hour';
  if recent >= (limits ->> 'per_sender_per_hour')::integer then
    return format(
      'You have sent %s suggestions in the last hour, the most we take from one sender: please try again in an hour.',
      recent);
  end if;
  select count(*) into recent from public.submissions where created_at > now() - interval '1 hour';
  if recent >= (limits ->> 'per_hour')::integer then
    return 'We have received many suggestions in the last hour: please try again in an hour.';
  end if;
  return null;
end;
$$;
comment on function public.suggestion_rate_problem(text) is
  'Why a sender may not suggest more this hour (submission_limits: per_sender_per_hour, per_hour), or null.';

revoke all on function public.suggestion_size_problem(jsonb, jsonb) from public, anon, authenticated;
revoke all on function public.suggested_website_problem(text) from public, anon, authenticated;
revoke all on function public.suggested_email_problem(text, text, text) from public, anon, authenticated;
revoke all on function public.suggestion_rate_problem(text) from public, anon, authenticated;

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
  problem text;
  allowed text[];
  required text[];
  key text;
  value jsonb;
  target uuid;
  sender text;
  new_id uuid;
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
  problem := public.suggestion_size_problem(payload, contact);
  if problem is not null then
    perform public.submission_refuse(problem);
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
  problem := coalesce(
    case when nullif(btrim(payload ->> 'website'), '') is not null
         then public.suggested_website_problem(payload ->> 'website') end,
    case when nullif(btrim(payload ->> 'phone'), '') is not null
         then public.suggested_phone_problem(payload ->> 'phone') end,
    case when nullif(btrim(payload ->> 'email'), '') is not null
         then public.suggested_email_problem(payload ->> 'email', 'The email', 'owner@example.com') end);
  if problem is not null then
    perform public.submission_refuse(problem);
  end if;
  if contact is not null then
    if exists (select 1 from jsonb_each(contact) c
                where c.key not in ('name', 'email') or jsonb_typeof(c.value) not in ('string', 'null')) then
      perform public.submission_refuse('contact must be {"name": ..., "email": ...} (both optional, both text).');
    end if;
    if nullif(btrim(contact ->> 'email'), '') is not null then
      problem := public.suggested_email_problem(contact ->> 'email', 'Your email', 'you@example.com, or left out');
      if problem is not null then
        perform public.submission_refuse(problem);
      end if;
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
  problem := public.suggestion_rate_problem(sender);
  if problem is not null then
    raise exception using errcode = 'PT429', message = problem;
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
