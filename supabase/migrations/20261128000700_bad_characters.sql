-- Bad characters refused, not crashed on (issue 43): a visitor's suggestion carrying an invisible
-- control character, or in a name or title a bidirectional override or isolate, is refused with
-- PT400 (HTTP 400 through PostgREST) naming the field, and nothing is stored. This is the rule of
-- the shared zod schemas (textCharacterProblem in scripts/src/content/schema.ts), which the
-- console's API applies to every text field; here only for what anon sends to submit_suggestion
-- (on Supabase the form calls the rpc directly, past the console's zod).
--
-- The controls refused: C0 but tab, newline and carriage return, DEL, and C1. A carriage return
-- is taken as a line break here (a textarea sends CRLF; the zod schemas turn it into a newline
-- when an operator accepts the suggestion). A NUL never reaches this: Postgres refuses \u0000 in
-- jsonb and text (SQLSTATE 22P05, which PostgREST answers with 400), and the console's route
-- refuses it with zod first.

/** What is wrong with a text's characters, as a message naming the field, or null (the zod rule's twin). */
create or replace function public.text_character_problem(field text, value text, is_name boolean default false)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  bad text;
begin
  bad := substring(value from '[\x01-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]');
  if bad is not null then
    return format('%s contains an invisible control character (U+%s): remove it (only tabs and line breaks may be in a text).',
      field, upper(lpad(to_hex(ascii(bad)), 4, '0')));
  end if;
  if is_name then
    bad := substring(value from '[\u202A-\u202E\u2066-\u2069]');
    if bad is not null then
      return format('%s contains a bidirectional control character (U+%s), which makes it read differently from what it is: remove it.',
        field, upper(lpad(to_hex(ascii(bad)), 4, '0')));
    end if;
  end if;
  return null;
end;
$$;
comment on function public.text_character_problem(text, text, boolean) is
  'Why a text field''s characters are refused (a control character; in a name or title a bidirectional control), or null.';

/**
 * Refuses a submission whose text has a character textCharacterProblem refuses: every string of
 * the payload (a service's name and description too) and the sender's name and email.
 */
create or replace function public.submission_refuse_bad_characters()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  problem text;
begin
  select p into problem
    from (
      select public.text_character_problem(f.key, f.value #>> '{}', f.key in ('name', 'title')) p, 1 o, f.key k
        from jsonb_each(new.payload) f where jsonb_typeof(f.value) = 'string'
      union all
      select public.text_character_problem(format('services[%s].%s', s.n - 1, c.key), c.value #>> '{}',
                                           c.key = 'service_name'), 2, s.n::text || c.key
        from jsonb_array_elements(case when jsonb_typeof(new.payload -> 'services') = 'array'
                                       then new.payload -> 'services' else '[]'::jsonb end)
             with ordinality s(service, n)
        cross join lateral jsonb_each(case when jsonb_typeof(s.service) = 'object' then s.service else '{}'::jsonb end) c
       where jsonb_typeof(c.value) = 'string'
      union all
      select public.text_character_problem('contact name', new.contact_name, true), 3, 'name'
      union all
      select public.text_character_problem('contact email', new.contact_email), 3, 'email'
    ) checked
   where p is not null
   order by o, k
   limit 1;
  if problem is not null then
    raise exception using errcode = 'PT400', message = problem;
  end if;
  return new;
end;
$$;
comment on function public.submission_refuse_bad_characters() is
  'Trigger: refuses a submission with a control character in its text, or a bidirectional control in a name or title (PT400).';

create trigger submissions_refuse_bad_characters
  before insert on public.submissions
  for each row execute function public.submission_refuse_bad_characters();

revoke all on function public.text_character_problem(text, text, boolean) from public, anon, authenticated;
grant execute on function public.text_character_problem(text, text, boolean) to service_role;
revoke all on function public.submission_refuse_bad_characters() from public, anon, authenticated;

-- Only the trigger writes the audit trail, on Supabase too (found by the real-server test,
-- scripts/test/real-postgres.test.ts): a Supabase project grants every new table in public to
-- the API roles by default, and 20261125000300_audit.sql took those grants back from anon and
-- authenticated but not from service_role, which bypasses row-level security. So the service
-- role's key could rewrite or delete the history; now it only reads it, as on the embedded store.
revoke insert, update, delete, truncate, references, trigger on public.audit_log from service_role;
