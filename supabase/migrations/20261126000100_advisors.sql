-- Supabase's advisors (splinter) at zero, with exactly the same access as before (issue 30).
--
-- function_search_path_mutable: four functions ran with the caller's search_path, so a caller
-- who could put a schema of their own first could make them resolve names elsewhere. Their
-- bodies already name every object with its schema, so an empty search_path is enough.
--
-- multiple_permissive_policies: each content table had two permissive SELECT policies for
-- authenticated (the visitors' read and the operators' "for all"), which Postgres evaluates both
-- of for every row. Now each role has one policy per action: anon keeps the visitors' read;
-- authenticated gets one read, "what a visitor sees, or everything for an operator"; the
-- operators' writes become one policy each for insert, update and delete.
-- scripts/test/advisors.test.ts asserts both rules over the catalog, so no later migration brings
-- them back; scripts/test/rls.test.ts shows the access is unchanged.

alter function public.set_updated_at() set search_path = '';
alter function public.business_images_clear_other_primary() set search_path = '';
alter function public.operator_password_changed() set search_path = '';
alter function public.invalid_outcome(text, text) set search_path = '';

-- location_categories
drop policy "Visitors read every category" on public.location_categories;
drop policy "Operators manage categories" on public.location_categories;
create policy "Visitors read every category" on public.location_categories
  for select to anon using (true);
create policy "Visitors and operators read categories" on public.location_categories
  for select to authenticated using (true);
create policy "Operators add categories" on public.location_categories
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change categories" on public.location_categories
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove categories" on public.location_categories
  for delete to authenticated using ((select public.is_operator()));

-- businesses
drop policy "Visitors read active businesses" on public.businesses;
drop policy "Operators manage businesses" on public.businesses;
create policy "Visitors read active businesses" on public.businesses
  for select to anon using (is_active);
create policy "Visitors and operators read businesses" on public.businesses
  for select to authenticated using ((is_active) or (select public.is_operator()));
create policy "Operators add businesses" on public.businesses
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change businesses" on public.businesses
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove businesses" on public.businesses
  for delete to authenticated using ((select public.is_operator()));

-- business_services
drop policy "Visitors read services of active businesses" on public.business_services;
drop policy "Operators manage services" on public.business_services;
create policy "Visitors read services of active businesses" on public.business_services
  for select to anon using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors and operators read services" on public.business_services
  for select to authenticated using ((exists (select 1 from public.businesses b where b.id = business_id and b.is_active)) or (select public.is_operator()));
create policy "Operators add services" on public.business_services
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change services" on public.business_services
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove services" on public.business_services
  for delete to authenticated using ((select public.is_operator()));

-- business_images
drop policy "Visitors read images of active businesses" on public.business_images;
drop policy "Operators manage images" on public.business_images;
create policy "Visitors read images of active businesses" on public.business_images
  for select to anon using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors and operators read images" on public.business_images
  for select to authenticated using ((exists (select 1 from public.businesses b where b.id = business_id and b.is_active)) or (select public.is_operator()));
create policy "Operators add images" on public.business_images
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change images" on public.business_images
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove images" on public.business_images
  for delete to authenticated using ((select public.is_operator()));

-- business_hours
drop policy "Visitors read hours of active businesses" on public.business_hours;
drop policy "Operators manage hours" on public.business_hours;
create policy "Visitors read hours of active businesses" on public.business_hours
  for select to anon using (exists (select 1 from public.businesses b where b.id = business_id and b.is_active));
create policy "Visitors and operators read hours" on public.business_hours
  for select to authenticated using ((exists (select 1 from public.businesses b where b.id = business_id and b.is_active)) or (select public.is_operator()));
create policy "Operators add hours" on public.business_hours
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change hours" on public.business_hours
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove hours" on public.business_hours
  for delete to authenticated using ((select public.is_operator()));

-- attractions
drop policy "Visitors read active attractions" on public.attractions;
drop policy "Operators manage attractions" on public.attractions;
create policy "Visitors read active attractions" on public.attractions
  for select to anon using (is_active);
create policy "Visitors and operators read attractions" on public.attractions
  for select to authenticated using ((is_active) or (select public.is_operator()));
create policy "Operators add attractions" on public.attractions
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change attractions" on public.attractions
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove attractions" on public.attractions
  for delete to authenticated using ((select public.is_operator()));

-- community_events
drop policy "Visitors read active events" on public.community_events;
drop policy "Operators manage events" on public.community_events;
create policy "Visitors read active events" on public.community_events
  for select to anon using (is_active);
create policy "Visitors and operators read events" on public.community_events
  for select to authenticated using ((is_active) or (select public.is_operator()));
create policy "Operators add events" on public.community_events
  for insert to authenticated with check ((select public.is_operator()));
create policy "Operators change events" on public.community_events
  for update to authenticated using ((select public.is_operator())) with check ((select public.is_operator()));
create policy "Operators remove events" on public.community_events
  for delete to authenticated using ((select public.is_operator()));
