-- A lockout that gives nothing away (issue 30): wrong passwords are counted per email, whether or
-- not an operator has that email. Counted on the operators row, an unknown email never locked, so
-- a few tries told which emails have accounts. Now every email takes the same path and gets the
-- same answers; the counts move out of operators into a table of their own, which only the
-- service role (the console's sign-in) reads or writes.

create table public.sign_in_failures (
  email text primary key check (email = lower(btrim(email)) and length(email) <= 254),
  failed_attempts integer not null default 0 check (failed_attempts >= 0),
  locked_until timestamptz,
  last_failed_at timestamptz not null default now()
);
comment on table public.sign_in_failures is
  'Wrong passwords per email since the last right one, for operators and unknown emails alike; past a few, locked_until delays the next try.';

alter table public.sign_in_failures enable row level security;
create policy "Service role manages sign-in failures" on public.sign_in_failures
  for all to service_role using (true) with check (true);
revoke all on public.sign_in_failures from anon, authenticated;
grant select, insert, update, delete on public.sign_in_failures to service_role;

alter table public.operators drop column failed_attempts, drop column locked_until;

-- A new password clears the lockout of the operator's email: the admin who set it vouches for
-- them. Security definer: the admin acts as authenticated, who may not touch the failures.
create or replace function public.operator_password_changed() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.sign_in_failures where email in (old.email, new.email);
  return new;
end;
$$;
comment on function public.operator_password_changed() is 'Clears the failed sign-ins (and so the lockout) of an operator whose password changes.';
