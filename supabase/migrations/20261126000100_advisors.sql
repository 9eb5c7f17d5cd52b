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

-- Per content table: its noun in policy names, the visitors' policy and what visitors see.
do $$
declare
  t record;
  operator constant text := '(select public.is_operator())';
begin
  for t in
    select * from (values
      ('location_categories', 'categories', 'Visitors read every category', 'true'),
      ('businesses', 'businesses', 'Visitors read active businesses', 'is_active'),
      ('business_services', 'services', 'Visitors read services of active businesses',
        'exists (select 1 from public.businesses b where b.id = business_id and b.is_active)'),
      ('business_images', 'images', 'Visitors read images of active businesses',
        'exists (select 1 from public.businesses b where b.id = business_id and b.is_active)'),
      ('business_hours', 'hours', 'Visitors read hours of active businesses',
        'exists (select 1 from public.businesses b where b.id = business_id and b.is_active)'),
      ('attractions', 'attractions', 'Visitors read active attractions', 'is_active'),
      ('community_events', 'events', 'Visitors read active events', 'is_active')
    ) as content (table_name, noun, visitors_policy, visible)
  loop
    execute format('drop policy %I on public.%I', t.visitors_policy, t.table_name);
    execute format('drop policy %I on public.%I', 'Operators manage ' || t.noun, t.table_name);
    execute format('create policy %I on public.%I for select to anon using (%s)',
      t.visitors_policy, t.table_name, t.visible);
    execute format('create policy %I on public.%I for select to authenticated using ((%s) or %s)',
      'Visitors and operators read ' || t.noun, t.table_name, t.visible, operator);
    execute format('create policy %I on public.%I for insert to authenticated with check (%s)',
      'Operators add ' || t.noun, t.table_name, operator);
    execute format('create policy %I on public.%I for update to authenticated using (%s) with check (%s)',
      'Operators change ' || t.noun, t.table_name, operator, operator);
    execute format('create policy %I on public.%I for delete to authenticated using (%s)',
      'Operators remove ' || t.noun, t.table_name, operator);
  end loop;
end;
$$;
