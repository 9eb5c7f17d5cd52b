-- One rule for what an email address looks like (issue 51). A visitor's suggestion
-- (suggested_email_problem, 20261201000400_suggestion_rules.sql) and "Notify me"
-- (subscription_email_problem, 20261201000200_notify.sql) each checked the shape with their own copy
-- of the same pattern; both now ask public.email_problem, so a later migration that changes what an
-- address is redefines that one function. Each caller keeps its own words and its other checks
-- (Notify me's empty and too-long addresses), and every message stays as it was.

/** Why a text is not an email address (an @ and a dot after it, no spaces), in words naming the field (label) and an example, or null. */
create or replace function public.email_problem(email text, label text, example text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when email !~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'
    then format('%s must be an address such as %s.', label, example) end
$$;
comment on function public.email_problem(text, text, text) is
  'Why a text is no email address (the one rule of suggestions and subscriptions), or null.';

/** Why an email address of a suggestion cannot be one, in words naming the field (label) and an example, or null. */
create or replace function public.suggested_email_problem(email text, label text, example text)
returns text
language sql
immutable
security definer
set search_path = ''
as $$ select public.email_problem(email, label, example) $$;

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
    else public.email_problem(btrim(email), 'The email', 'you@example.com')
  end
$$;

revoke all on function public.email_problem(text, text, text) from public, anon, authenticated;
grant execute on function public.email_problem(text, text, text) to service_role;
