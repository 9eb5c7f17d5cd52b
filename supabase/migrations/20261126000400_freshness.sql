-- The freshness watch (issue 28): `roland check` and the console's "Check listings" look at
-- every active business and record what they find (a dead, failing, moved or parked website, an
-- invalid phone, unreadable hours, no photo, not verified in a year) as findings with first seen,
-- last seen and resolved at. The console's "Needs attention" lists them; an operator verifies a
-- listing, deactivates it, or dismisses a finding as a false positive.
--
-- Visitors never see a finding. The site learns only what it shows: when the listing was last
-- verified (businesses.verified_at) and whether its website link is hidden (website_hidden(),
-- a computed column PostgREST and the embedded catalog both read).

alter table public.businesses
  add column verified_at timestamptz,
  add column verified_by uuid references public.operators (id) on delete set null;
comment on column public.businesses.verified_at is
  'When an operator last confirmed the listing is current; the page says "Listing checked {Month YYYY}".';
comment on column public.businesses.verified_by is
  'The operator who confirmed it (an id, so visitors reading the row learn no name); null for automation.';

alter table public.jobs drop constraint jobs_kind_check;
alter table public.jobs add constraint jobs_kind_check
  check (kind in ('migrate', 'crawl', 'images', 'rebuild', 'check'));

create table public.listing_findings (
  id uuid primary key default gen_random_uuid(),
  business_id uuid not null references public.businesses (id) on delete cascade,
  kind text not null check (kind in ('website-unreachable', 'website-error', 'website-moved', 'website-parked',
    'phone-invalid', 'hours-unreadable', 'no-photo', 'unverified')),
  detail text not null check (length(detail) <= 1000),
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  -- How many checks in a row have found it: a website unreachable at 3 loses its link on the site.
  seen_count integer not null default 1 check (seen_count >= 1),
  resolved_at timestamptz,
  dismissed_at timestamptz,
  dismissed_by text,
  -- The evidence the operator dismissed: a check that finds other evidence brings the finding back.
  dismissed_detail text,
  check ((dismissed_at is null) = (dismissed_detail is null)),
  check (resolved_at is null or resolved_at >= first_seen_at)
);
comment on table public.listing_findings is
  'What the freshness check found about a business: one open row per business and kind until it no longer holds.';
create unique index listing_findings_open_idx on public.listing_findings (business_id, kind) where resolved_at is null;
create index listing_findings_business_idx on public.listing_findings (business_id, kind, last_seen_at desc);

alter table public.listing_findings enable row level security;
create policy "Operators read findings" on public.listing_findings
  for select to authenticated using ((select public.is_operator()));
create policy "Service role manages findings" on public.listing_findings
  for all to service_role using (true) with check (true);
revoke all on public.listing_findings from anon, authenticated;
grant select on public.listing_findings to authenticated;
grant select, insert, update, delete on public.listing_findings to service_role;

/**
 * Whether the site hides a business's "Visit Website" link: its website was unreachable at the
 * last 3 checks in a row and no operator dismissed that. A computed column: visitors learn this
 * one fact, which the published page shows anyway, and nothing else of the findings.
 */
create or replace function public.website_hidden(business public.businesses)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.listing_findings f
     where f.business_id = business.id and f.kind = 'website-unreachable' and f.resolved_at is null
       and f.dismissed_at is null and f.seen_count >= 3)
$$;
comment on function public.website_hidden(public.businesses) is
  'True when the business''s website was unreachable at 3 checks in a row (not dismissed): the site drops its link.';
revoke all on function public.website_hidden(public.businesses) from public;
grant execute on function public.website_hidden(public.businesses) to anon, authenticated, service_role;

/** The active businesses a check looks at (all, or the one slug), with what each rule reads. */
create or replace function public.listings_to_check(only_slug text default null)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', b.id, 'slug', b.slug, 'name', b.name, 'website', b.website,
           'phone', b.phone, 'hours', b.hours, 'verified_at', b.verified_at,
           'has_image', exists (select 1 from public.business_images i where i.business_id = b.id))
           order by b.slug), '[]'::jsonb)
    from public.businesses b
   where b.is_active and (only_slug is null or b.slug = only_slug)
$$;

/**
 * Records one check: `checked` is [{business_id, findings: [{kind, detail}]}] for every business
 * it looked at. A finding seen again moves its last seen and count (a dismissal holds while the
 * detail is the same); a new one opens (keeping an earlier dismissal of the same evidence); an
 * open finding the check no longer sees resolves. Only the businesses checked are touched.
 */
create or replace function public.record_check(checked jsonb)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  opened integer;
  resolved integer;
  seen integer;
  found_now jsonb;
begin
  -- [{business_id, kind, detail}] of everything this check found.
  select coalesce(jsonb_agg(jsonb_build_object('business_id', c ->> 'business_id', 'kind', f ->> 'kind',
           'detail', left(f ->> 'detail', 1000))), '[]'::jsonb)
    into found_now
    from jsonb_array_elements(checked) c
    cross join lateral jsonb_array_elements(coalesce(c -> 'findings', '[]'::jsonb)) f;

  update public.listing_findings l set resolved_at = now()
   where l.resolved_at is null
     and l.business_id in (select (c ->> 'business_id')::uuid from jsonb_array_elements(checked) c)
     and not exists (select 1 from jsonb_array_elements(found_now) n
                      where (n ->> 'business_id')::uuid = l.business_id and n ->> 'kind' = l.kind);
  get diagnostics resolved = row_count;

  update public.listing_findings l
     set last_seen_at = now(), seen_count = l.seen_count + 1, detail = n.detail,
         dismissed_at = case when l.dismissed_detail = n.detail then l.dismissed_at end,
         dismissed_by = case when l.dismissed_detail = n.detail then l.dismissed_by end,
         dismissed_detail = case when l.dismissed_detail = n.detail then l.dismissed_detail end
    from jsonb_to_recordset(found_now) as n(business_id uuid, kind text, detail text)
   where l.resolved_at is null and l.business_id = n.business_id and l.kind = n.kind;
  get diagnostics seen = row_count;

  insert into public.listing_findings (business_id, kind, detail, dismissed_at, dismissed_by, dismissed_detail)
  select n.business_id, n.kind, n.detail, d.dismissed_at, d.dismissed_by, d.dismissed_detail
    from jsonb_to_recordset(found_now) as n(business_id uuid, kind text, detail text)
    left join lateral (
      select p.dismissed_at, p.dismissed_by, p.dismissed_detail from public.listing_findings p
       where p.business_id = n.business_id and p.kind = n.kind and p.dismissed_detail = n.detail
       order by p.last_seen_at desc limit 1) d on true
   where exists (select 1 from public.businesses b where b.id = n.business_id)
     and not exists (select 1 from public.listing_findings l
                      where l.resolved_at is null and l.business_id = n.business_id and l.kind = n.kind);
  get diagnostics opened = row_count;

  return jsonb_build_object('opened', opened, 'seen', seen, 'resolved', resolved);
end;
$$;

/** The open findings of active businesses (all, or one slug), dismissed ones included and marked. */
create or replace function public.open_findings(only_slug text default null)
returns jsonb
language sql
stable
security invoker
set search_path = public, pg_temp
as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', f.id, 'business_id', b.id, 'business', b.slug,
           'name', b.name, 'kind', f.kind, 'detail', f.detail, 'first_seen_at', f.first_seen_at,
           'last_seen_at', f.last_seen_at, 'seen_count', f.seen_count, 'dismissed_at', f.dismissed_at,
           'dismissed_by', f.dismissed_by, 'website_hidden', public.website_hidden(b))
           order by f.kind, b.slug), '[]'::jsonb)
    from public.listing_findings f
    join public.businesses b on b.id = f.business_id
   where f.resolved_at is null and b.is_active and (only_slug is null or b.slug = only_slug)
$$;

/** Dismisses a finding as a false positive, until a check finds other evidence. */
create or replace function public.dismiss_finding(finding uuid, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  done uuid;
begin
  perform public.act_as(actor);
  update public.listing_findings
     set dismissed_at = now(), dismissed_by = public.audit_actor(), dismissed_detail = detail
   where id = finding and resolved_at is null
  returning id into done;
  return jsonb_build_object('status', case when done is null then 'not_found' else 'ok' end);
end;
$$;

/**
 * Marks a listing verified now by the acting operator (audited like any edit, so Undo takes it
 * back) and resolves its "unverified" finding at once.
 */
create or replace function public.verify_business(business uuid, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  done uuid;
begin
  perform public.act_as(actor);
  update public.businesses b
     set verified_at = now(),
         verified_by = (select o.id from public.operators o
                         where coalesce(o.user_id, o.id)::text = coalesce(actor ->> 'id', actor ->> 'sub'))
   where b.id = business
  returning b.id into done;
  if done is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  update public.listing_findings set resolved_at = now()
   where business_id = business and kind = 'unverified' and resolved_at is null;
  return jsonb_build_object('status', 'ok', 'row', public.content_row('businesses', business::text));
end;
$$;

do $$
declare
  f text;
begin
  foreach f in array array['listings_to_check(text)', 'record_check(jsonb)', 'open_findings(text)',
    'dismiss_finding(uuid, jsonb)', 'verify_business(uuid, jsonb)'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;
