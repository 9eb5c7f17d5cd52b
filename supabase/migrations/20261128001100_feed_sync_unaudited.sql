-- What a calendar feed's sync writes is not an operator's change: the feed is its source, the next
-- sync writes it again, and no operator may edit or undo its text (community_events_feed_guard).
-- Auditing it wrote one audit_log row per event of every feed, which made up most of a sync's
-- time (20 feeds of 500 events: 19 s of inserts with the rows audited, 4 s without) and buried
-- the operators' own changes under thousands of lines. The sync's own record stays: the feed's
-- row (calendar_feeds, audited) says when it last synced, and the job's result says what changed.
-- An operator's hiding of a feed's event, made outside the sync, is audited as before.
drop trigger community_events_audit on public.community_events;
create trigger community_events_audit after insert or update or delete on public.community_events
  for each row when (current_setting('roland.feed_sync', true) is distinct from 'on')
  execute function public.audit_change();
comment on trigger community_events_audit on public.community_events is
  'Audits every change of an event but the writes of a calendar feed''s sync (roland.feed_sync on).';
