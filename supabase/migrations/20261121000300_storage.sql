-- The public 'files' bucket holds Roland.txt and business images (business-images/...).
-- Only on Supabase, where the storage schema exists; the embedded store keeps files in .data/storage.
do $$
begin
  if to_regclass('storage.buckets') is not null then
    insert into storage.buckets (id, name, public)
    values ('files', 'files', true)
    on conflict (id) do nothing;
  end if;
end;
$$;
