-- The Inbox's business picker (issue 49): a visitor's "new business" that is already listed, or a
-- suggested edit whose business is gone (deleted, or replaced by a re-import), is accepted as an
-- edit of the listing the operator chose. accept_submission takes that listing as target_business:
-- the values go through edit_row on it (so the stale check, the table rules and the audit entry
-- naming the operator and the submission hold, as for every accepted change), and the submission
-- remembers the listing (business_id), so the Inbox shows it beside the listing once decided.
-- An event is about no business: a target is refused. Without a target, nothing changes.

drop function public.accept_submission(uuid, jsonb, timestamptz, jsonb);

/**
 * Accepts a pending submission by applying `fields` (the values as the operator checked them)
 * through the editing functions: edit_row for a business-update (refused as a conflict when the
 * business changed since expected_updated_at), create_row for a new business or event; with
 * target_business, edit_row on that business instead, for a business-update or a new business.
 * The change's audit entries name the operator and the submission. Answers the edit's outcome,
 * or {status: 'decided'} when someone decided it already.
 */
create function public.accept_submission(
  submission uuid,
  fields jsonb,
  expected_updated_at timestamptz default null,
  actor jsonb default null,
  target_business uuid default null
)
returns jsonb
language plpgsql
security invoker
set search_path = public, pg_temp
as $$
declare
  s public.submissions;
  outcome jsonb;
  listing uuid;
begin
  select * into s from public.submissions where id = submission for update;
  if not found then
    return jsonb_build_object('status', 'not_found');
  end if;
  if s.status <> 'pending' then
    return jsonb_build_object('status', 'decided', 'submission', public.submission_entry(s));
  end if;
  if target_business is not null and s.kind = 'event' then
    return public.invalid_outcome('An event is about no business: accept it without choosing a listing', null);
  end if;
  listing := coalesce(target_business, s.business_id);
  perform public.act_as(actor);
  perform set_config('roland.submission_id', s.id::text, true);
  if s.kind = 'business-update' or target_business is not null then
    if listing is null then
      outcome := jsonb_build_object('status', 'not_found');
    else
      outcome := public.edit_row('businesses', listing::text, fields, expected_updated_at, actor);
    end if;
  else
    outcome := public.create_row(case s.kind when 'event' then 'community_events' else 'businesses' end, fields, actor);
  end if;
  perform set_config('roland.submission_id', '', true);
  perform public.forget_submission_senders();
  if outcome ->> 'status' = 'ok' then
    update public.submissions
       set status = 'accepted', decided_by = public.audit_actor(), decided_at = now(),
           applied_row_id = outcome #>> '{row,id}',
           business_id = case when target_business is not null then target_business else business_id end
     where id = s.id
     returning * into s;
    outcome := outcome || jsonb_build_object('submission', public.submission_entry(s));
  end if;
  return outcome;
end;
$$;
comment on function public.accept_submission(uuid, jsonb, timestamptz, jsonb, uuid) is
  'Accepts a pending submission through edit_row or create_row (with target_business: edit_row on that listing); audited with the submission.';

revoke all on function public.accept_submission(uuid, jsonb, timestamptz, jsonb, uuid) from public, anon, authenticated;
grant execute on function public.accept_submission(uuid, jsonb, timestamptz, jsonb, uuid) to service_role;
