-- Editing content from the console (issue 18): businesses, their photos, attractions and events.
-- Every edit is one call of a function below, so it is one transaction: it either all happens
-- or none of it does, and the audit trigger records it under the acting operator.
--
-- Both stores call the same functions with the service role: the embedded store with
-- `select public.edit_row(...)`, Supabase with `rpc('edit_row', ...)`. The service role is one
-- identity for every caller, so these functions take the operator the console has checked as an
-- `actor` argument ({"email", "role"}) and put it in request.jwt.claims for the audit trigger.
-- The argument is honoured only for the service role: any other caller (an operator signed in
-- with their own JWT) is named by the claims PostgREST set from that JWT, which it cannot replace.
--
-- Answers are {status: ok | not_found | conflict | invalid, row?, message?, constraint?}, so a
-- caller tells a stale copy (409) and a bad value (400) from a failure without parsing errors.

alter table public.businesses
  add column email text check (email is null or email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$');
comment on column public.businesses.email is 'The address the business takes email at, shown on its page.';

alter table public.community_events
  add column is_cancelled boolean not null default false;
comment on column public.community_events.is_cancelled is 'Called off: still listed, marked cancelled, until it is deleted.';

-- Undo writes a whole transaction back in reverse order, which may put a business's services back
-- before the business itself: the children's references are checked at commit for that. (Deleting
-- a business still cascades at once: referential actions are never deferred.)
alter table public.business_services alter constraint business_services_business_id_fkey deferrable initially immediate;
alter table public.business_images alter constraint business_images_business_id_fkey deferrable initially immediate;
alter table public.business_hours alter constraint business_hours_business_id_fkey deferrable initially immediate;

/** Names the acting operator for the audit trigger, when the caller is the service role. */
create or replace function public.act_as(actor jsonb)
returns void
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  if actor is not null and jsonb_typeof(actor) = 'object' and current_user = 'service_role' then
    perform set_config('request.jwt.claims', actor::text, true);
  end if;
end;
$$;
comment on function public.act_as(jsonb) is
  'Sets request.jwt.claims to the operator the console vouches for (service role only), for the audit trail.';

/** The columns an operator may set on a content table, and those a new row may also set. */
create or replace function public.editable_columns(target text, creating boolean default false)
returns text[]
language sql
immutable
set search_path = public, pg_temp
as $$
  select case target
    when 'businesses' then array['name', 'category', 'short_description', 'full_description', 'address',
      'phone', 'email', 'website', 'hours', 'is_featured', 'is_active', 'rating', 'price_range']
      || case when creating then array['slug', 'metadata'] else array[]::text[] end
    when 'business_images' then array['alt_text', 'is_primary', 'sort_order', 'image_type']
      || case when creating then array['business_id', 'image_url', 'metadata', 'width', 'height', 'placeholder', 'variants']
              else array[]::text[] end
    when 'attractions' then array['name', 'category', 'description', 'badge', 'rating', 'distance', 'image_url',
      'address', 'website', 'is_featured', 'is_active', 'sort_order']
      || case when creating then array['id'] else array[]::text[] end
    when 'community_events' then array['title', 'description', 'starts_at', 'ends_at', 'location', 'event_type',
      'is_active', 'is_cancelled']
      || case when creating then array['slug'] else array[]::text[] end
  end
$$;

-- A business's services and opening hours are edited with it: `services` is [{service_name,
-- description}] (the first is featured, SPEC §3) and `hours_detail` the rows parsed from its hours.
create or replace function public.replace_business_children(business uuid, fields jsonb)
returns void
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  if fields ? 'services' then
    delete from public.business_services where business_id = business;
    insert into public.business_services (business_id, service_name, description, is_featured, sort_order)
    select business, s.value ->> 'service_name', nullif(btrim(s.value ->> 'description'), ''), s.n = 1, s.n - 1
      from jsonb_array_elements(fields -> 'services') with ordinality as s(value, n);
  end if;
  if fields ? 'hours_detail' then
    delete from public.business_hours where business_id = business;
    insert into public.business_hours (business_id, day_of_week, opens_at, closes_at, is_closed)
    select business, (x ->> 'day_of_week')::smallint, (x ->> 'opens_at')::time, (x ->> 'closes_at')::time,
           coalesce((x ->> 'is_closed')::boolean, false)
      from jsonb_array_elements(fields -> 'hours_detail') x;
  end if;
end;
$$;

/** One content row as the console shows it (a business with its services and images). */
create or replace function public.content_row(target text, row_id text)
returns jsonb
language plpgsql
stable
security invoker
set search_path = public, pg_temp
as $$
declare
  found jsonb;
begin
  if public.editable_columns(target) is null then
    raise exception 'Not a content table: %', target;
  end if;
  execute format('select to_jsonb(t) from public.%I t where t.id::text = $1', target) into found using row_id;
  if found is not null and target = 'businesses' then
    found := found || jsonb_build_object(
      'services', coalesce((select jsonb_agg(jsonb_build_object('service_name', s.service_name,
                    'description', s.description) order by s.sort_order, s.service_name)
                  from public.business_services s where s.business_id = row_id::uuid), '[]'::jsonb),
      'images', coalesce((select jsonb_agg(to_jsonb(i) order by i.sort_order, i.created_at)
                  from public.business_images i where i.business_id = row_id::uuid), '[]'::jsonb));
  end if;
  return found;
end;
$$;

/** Every row of a content table as the console lists it. */
create or replace function public.content_rows(target text)
returns jsonb
language plpgsql
stable
security invoker
set search_path = public, pg_temp
as $$
declare
  ids text[];
  listed jsonb;
begin
  if public.editable_columns(target) is null then
    raise exception 'Not a content table: %', target;
  end if;
  execute format('select coalesce(array_agg(t.id::text order by %s), array[]::text[]) from public.%I t',
                 case target when 'businesses' then 't.name, t.slug'
                             when 'attractions' then 't.sort_order, t.name'
                             when 'community_events' then 't.starts_at desc'
                             else 't.sort_order, t.created_at' end,
                 target) into ids;
  select coalesce(jsonb_agg(public.content_row(target, i) order by n), '[]'::jsonb) into listed
    from unnest(ids) with ordinality as u(i, n);
  return listed;
end;
$$;

-- The outcome of a statement that broke a rule of the table: which rule, for the caller's 400.
create or replace function public.invalid_outcome(message text, rule text)
returns jsonb
language sql
immutable
as $$ select jsonb_build_object('status', 'invalid', 'message', message, 'constraint', rule) $$;

/** Adds a content row: a business (with services and hours), an image, an attraction or an event. */
create or replace function public.create_row(target text, fields jsonb, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  allowed text[] := public.editable_columns(target, true);
  cols text;
  new_id text;
  rule text;
begin
  if allowed is null then
    return public.invalid_outcome(format('Not a content table: %s', target), null);
  end if;
  perform public.act_as(actor);
  select string_agg(quote_ident(k), ', ') into cols from jsonb_object_keys(fields) k where k = any (allowed);
  if cols is null then
    return public.invalid_outcome('Nothing to create: give the fields of the new row', null);
  end if;
  begin
    execute format('insert into public.%I (%s) select %s from jsonb_populate_record(null::public.%I, $1) r
                    returning id::text', target, cols, cols, target)
       into new_id using fields;
    if target = 'businesses' then
      perform public.replace_business_children(new_id::uuid, fields);
    end if;
  exception when check_violation or unique_violation or not_null_violation or foreign_key_violation
            or invalid_text_representation or invalid_datetime_format or datetime_field_overflow then
    get stacked diagnostics rule = constraint_name;
    return public.invalid_outcome(sqlerrm, rule);
  end;
  return jsonb_build_object('status', 'ok', 'row', public.content_row(target, new_id));
end;
$$;

/**
 * Changes the given fields of a content row, if it is still the version the operator loaded:
 * the check and the write are one statement, so two stale saves cannot both win.
 */
create or replace function public.edit_row(
  target text,
  row_id text,
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
  allowed text[] := public.editable_columns(target);
  cols text;
  changed text;
  rule text;
begin
  if allowed is null then
    return public.invalid_outcome(format('Not a content table: %s', target), null);
  end if;
  perform public.act_as(actor);
  select string_agg(quote_ident(k), ', ') into cols from jsonb_object_keys(fields) k where k = any (allowed);
  begin
    -- Always an update, even of children only, so the row's updated_at moves and locks it.
    execute format('update public.%I t set updated_at = now() %s where t.id::text = $2
                      and ($3::timestamptz is null or t.updated_at = $3) returning t.id::text',
                   target,
                   case when cols is null then ''
                        else format(', (%s) = (select %s from jsonb_populate_record(t, $1) r)', cols,
                                    (select string_agg('r.' || quote_ident(k), ', ')
                                       from jsonb_object_keys(fields) k where k = any (allowed)))
                   end)
       into changed using fields, row_id, expected_updated_at;
    if changed is not null and target = 'businesses' then
      perform public.replace_business_children(row_id::uuid, fields);
    end if;
  exception when check_violation or unique_violation or not_null_violation or foreign_key_violation
            or invalid_text_representation or invalid_datetime_format or datetime_field_overflow then
    get stacked diagnostics rule = constraint_name;
    return public.invalid_outcome(sqlerrm, rule);
  end;
  if changed is null then
    return jsonb_build_object(
      'status', case when public.content_row(target, row_id) is null then 'not_found' else 'conflict' end,
      'row', public.content_row(target, row_id));
  end if;
  return jsonb_build_object('status', 'ok', 'row', public.content_row(target, row_id));
end;
$$;

/** Deletes a content row (a business takes its services, images and hours with it). */
create or replace function public.delete_row(
  target text,
  row_id text,
  expected_updated_at timestamptz default null,
  actor jsonb default null
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  gone jsonb;
begin
  if public.editable_columns(target) is null then
    return public.invalid_outcome(format('Not a content table: %s', target), null);
  end if;
  perform public.act_as(actor);
  gone := public.content_row(target, row_id);
  execute format('delete from public.%I t where t.id::text = $1 and ($2::timestamptz is null or t.updated_at = $2)
                  returning t.id::text', target)
     into row_id using row_id, expected_updated_at;
  if row_id is null then
    return jsonb_build_object('status', case when gone is null then 'not_found' else 'conflict' end, 'row', gone);
  end if;
  return jsonb_build_object('status', 'ok', 'row', gone);
end;
$$;

/** Puts a business's images in the order given (ids first to last), in one change. */
create or replace function public.reorder_business_images(business uuid, image_ids jsonb, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
begin
  perform public.act_as(actor);
  if not exists (select 1 from public.businesses where id = business) then
    return jsonb_build_object('status', 'not_found');
  end if;
  if (select array_agg(id order by id) from public.business_images where business_id = business)
     is distinct from (select array_agg(i::uuid order by i::uuid) from jsonb_array_elements_text(image_ids) i) then
    return public.invalid_outcome('List every image of the business exactly once: the photos changed since they were loaded', null);
  end if;
  update public.business_images i set sort_order = o.n - 1
    from jsonb_array_elements_text(image_ids) with ordinality as o(id, n)
   where i.id = o.id::uuid and i.sort_order <> o.n - 1;
  return jsonb_build_object('status', 'ok', 'row', public.content_row('businesses', business::text));
end;
$$;

/**
 * Undoes the change an audit entry records, with every other change of its transaction (a whole
 * save), by writing the rows back: the undo is a new change, recorded like any other. Refused when
 * a row has changed since, so an undo never silently throws away a later edit.
 */
create or replace function public.undo_change(entry_id bigint, actor jsonb default null)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  tx bigint;
  e record;
  now_row jsonb;
  cols text;
  undone integer := 0;
begin
  select txid into tx from public.audit_log where id = entry_id;
  if tx is null then
    return jsonb_build_object('status', 'not_found');
  end if;
  perform public.act_as(actor);
  set constraints business_services_business_id_fkey, business_images_business_id_fkey,
    business_hours_business_id_fkey deferred;
  begin
    for e in select * from public.audit_log where txid = tx order by id desc loop
      if public.editable_columns(e.table_name) is null and e.table_name not in ('business_services', 'business_hours') then
        raise exception using errcode = 'RL002', message = format('Changes to %s are not undone from the console', e.table_name);
      end if;
      execute format('select to_jsonb(t) from public.%I t where t.id::text = $1', e.table_name) into now_row using e.row_id;
      if now_row is distinct from e.after then
        raise exception using errcode = 'RL002', message = format(
          'This change cannot be undone: the %s row %s has changed since. Undo the later change first.',
          e.table_name, e.row_id);
      end if;
      select string_agg(quote_ident(a.attname), ', ') into cols
        from pg_attribute a
       where a.attrelid = format('public.%I', e.table_name)::regclass and a.attnum > 0 and not a.attisdropped
         and a.attname not in ('id', 'created_at', 'updated_at');
      if e.action = 'insert' then
        execute format('delete from public.%I t where t.id::text = $1', e.table_name) using e.row_id;
      elsif e.action = 'delete' then
        execute format('insert into public.%I select * from jsonb_populate_record(null::public.%I, $1)',
                       e.table_name, e.table_name) using e.before;
      else
        execute format('update public.%I t set (%s) = (select %s from jsonb_populate_record(t, $1) r)
                         where t.id::text = $2', e.table_name, cols, cols) using e.before, e.row_id;
      end if;
      undone := undone + 1;
    end loop;
  exception when sqlstate 'RL002' then
    return jsonb_build_object('status', 'conflict', 'message', sqlerrm);
  end;
  return jsonb_build_object('status', 'ok', 'undone', undone);
end;
$$;

/** The audit trail, newest first, optionally of one table or one row. */
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
           'row_id', a.row_id, 'action', a.action, 'before', a.before, 'after', a.after, 'txid', a.txid)
           order by a.id desc), '[]'::jsonb)
    from (select * from public.audit_log l
           where (audit_entries.target is null or l.table_name = audit_entries.target)
             and (audit_entries.row_id is null or l.row_id = audit_entries.row_id)
           order by l.id desc
           limit least(greatest(coalesce(max_entries, 100), 1), 1000)) a
$$;

do $$
declare
  f text;
begin
  foreach f in array array['act_as(jsonb)', 'editable_columns(text, boolean)', 'replace_business_children(uuid, jsonb)',
    'content_row(text, text)', 'content_rows(text)', 'invalid_outcome(text, text)', 'create_row(text, jsonb, jsonb)',
    'edit_row(text, text, jsonb, timestamptz, jsonb)', 'delete_row(text, text, timestamptz, jsonb)',
    'reorder_business_images(uuid, jsonb, jsonb)', 'undo_change(bigint, jsonb)',
    'audit_entries(text, text, integer)'] loop
    execute format('revoke all on function public.%s from public, anon, authenticated', f);
    execute format('grant execute on function public.%s to service_role', f);
  end loop;
end;
$$;
