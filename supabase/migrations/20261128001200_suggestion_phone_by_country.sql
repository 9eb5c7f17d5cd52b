-- A visitor's suggested phone follows the town's country (town_settings.country, issue 39), as the
-- editors' and the forms' rule does (scripts/src/content/schema.ts: submissionSchemasFor). Before,
-- submit_suggestion took only US numbers, so a town elsewhere could not receive a suggestion with
-- its own phone numbers. In the US the check is the one it was; elsewhere SQL cannot know each
-- country's numbering plan, so it keeps to what every dialable number has (7 to 15 digits, an
-- optional + and the usual separators, an extension), and the forms and the console's route check
-- the country's rules with libphonenumber-js before the call. submit_suggestion is the same as in
-- 20261126000300_submissions.sql but for that check.

/** Whether a visitor's phone can be dialled in the town's country; the message to answer otherwise. */
create or replace function public.suggested_phone_problem(phone text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when coalesce((select t.country from public.town_settings t limit 1), 'US') = 'US' then
      case when phone !~* '^\s*(\+?1[\s.-]?)?(\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(\s*(x|ext\.?|extension)\s*\d{1,6})?\s*$'
           then 'The phone must be a US phone number, such as (501) 555-0123.' end
    else
      case when phone !~* '^\s*\+?[\d\s().\-/]+(\s*(x|ext\.?|extension)\s*\d{1,6})?\s*$'
             or length(regexp_replace(regexp_replace(phone, '(x|ext\.?|extension)\s*\d+\s*$', '', 'i'), '\D', '', 'g'))
                not between 7 and 15
           then 'The phone must be a phone number of the town''s country, dialled there or with its + code.' end
  end
$$;
comment on function public.suggested_phone_problem(text) is
  'Why a visitor''s suggested phone cannot be taken in the town''s country (town_settings.country), or null.';
revoke all on function public.suggested_phone_problem(text) from public, anon, authenticated;

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
  problem text;
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
  if nullif(btrim(payload ->> 'phone'), '') is not null then
    problem := public.suggested_phone_problem(payload ->> 'phone');
    if problem is not null then
      perform public.submission_refuse(problem);
    end if;
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
