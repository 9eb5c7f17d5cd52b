-- Seed data every deployment needs: the location categories behind every navigation link,
-- the attractions around Roland and the coordinator's upcoming community events.
-- Businesses are not seeded here: they come from Roland.txt through `pnpm roland migrate`.
-- Safe to run twice: rows are matched on their slug or id.

insert into public.location_categories (slug, name, description, icon_name, color, sort_order, category_type) values
  ('dining-refreshments', 'Dining & Refreshments',
   'Coffee, home cooking, barbecue and sweets: where Roland eats, from the first cup of the morning to dinner by the lake.',
   'utensils', '#b45309', 10, 'business'),
  ('shopping-convenience', 'Shopping & Convenience',
   'Groceries, fuel, bait, hardware and gifts close to home, without the drive into Little Rock.',
   'shopping-bag', '#047857', 20, 'business'),
  ('professional-services', 'Professional Services',
   'Auto repair, insurance, real estate, health and home services run by neighbours you can call by name.',
   'briefcase', '#1d4ed8', 30, 'business'),
  ('sports', 'Sports & Recreation',
   'Ball fields, golf, paddling and fitness in and around Roland.',
   'trophy', '#c2410c', 40, 'recreation'),
  ('nature', 'Natural Attractions',
   'Pinnacle Mountain, Lake Maumelle, the Arkansas Arboretum and the trails that join them.',
   'mountain', '#15803d', 50, 'recreation'),
  ('premium', 'Premium Destinations',
   'Championship golf, lakeside dining and the special outings worth planning a day around.',
   'star', '#7c3aed', 60, 'recreation'),
  ('centers', 'Community Centers',
   'Places where Roland gathers: meeting rooms, the library branch and the community garden site.',
   'users', '#0e7490', 70, 'community'),
  ('emergency', 'Emergency Services',
   'Fire, sheriff, ambulance and the numbers to keep by the phone.',
   'shield', '#b91c1c', 80, 'community'),
  ('faith', 'Faith Communities',
   'The churches of Roland and the surrounding valley, and when they meet.',
   'church', '#6d28d9', 90, 'community'),
  ('education', 'Education',
   'Schools, the library and learning for every age in the Roland area.',
   'graduation-cap', '#0369a1', 100, 'about'),
  ('history', 'History',
   'From the Big Maumelle valley settlers to today: how Roland came to be.',
   'landmark', '#92400e', 110, 'about')
-- A description is content operators edit in the console: running the seed again keeps theirs.
on conflict (slug) do update set
  name = excluded.name, icon_name = excluded.icon_name,
  color = excluded.color, sort_order = excluded.sort_order, category_type = excluded.category_type;

insert into public.attractions (id, name, category, description, badge, rating, distance, address, website, is_featured, sort_order) values
  ('pinnacle-mountain-state-park', 'Pinnacle Mountain State Park', 'Natural Attractions',
   'The cone-shaped peak that watches over Roland. Climb the West Summit trail for views over the Arkansas River valley and Lake Maumelle, paddle the Big and Little Maumelle rivers, or walk the level Arkansas Arboretum loop.',
   'Most Popular', 4.9, '5 miles', '11901 Pinnacle Valley Rd, Little Rock, AR 72223',
   'https://www.arkansasstateparks.com/parks/pinnacle-mountain-state-park', true, 10),
  ('lake-maumelle', 'Lake Maumelle', 'Natural Attractions',
   'Central Arkansas''s drinking-water lake: fourteen miles of quiet water for sailing, fishing for bass and crappie, and sunset picnics at the Jolly Rogers and Vista Point access areas.',
   'Fishing & Boating', 4.8, '3 miles', 'Highway 10, Roland, AR 72135', null, false, 20),
  ('arkansas-arboretum', 'Arkansas Arboretum', 'Natural Attractions',
   'A paved, accessible loop through the forest types of Arkansas, from the Ozarks to the Delta, at the foot of Pinnacle Mountain. Good for strollers, wheelchairs and first hikes.',
   'Family Friendly', 4.7, '6 miles', 'Pinnacle Valley Rd, Little Rock, AR 72223', null, false, 30),
  ('ouachita-national-recreation-trail', 'Ouachita National Recreation Trail', 'Natural Attractions',
   'The eastern trailhead of a 223-mile footpath across the Ouachita Mountains starts at Pinnacle Mountain. Day hikers take the first miles west toward Lake Maumelle.',
   'Hiking', 4.8, '5 miles', 'Highway 300 trailhead, Roland, AR 72135', null, false, 40),
  ('two-rivers-park', 'Two Rivers Park', 'Natural Attractions',
   'A thousand acres of meadow and woodland where the Little Maumelle meets the Arkansas River, with paved trails that connect to the Big Dam Bridge and the Arkansas River Trail.',
   'Biking & Walking', 4.6, '11 miles', '6900 Two Rivers Park Rd, Little Rock, AR 72223', null, false, 50),
  ('chenal-country-club', 'Chenal Country Club', 'Premium Destinations',
   'Two championship golf courses laid into the hills of west Little Rock, with a clubhouse restaurant for a special evening out.',
   'Championship Golf', 4.7, '10 miles', '10000 Chenal Pkwy, Little Rock, AR 72211', null, false, 60)
on conflict (id) do update set
  name = excluded.name, category = excluded.category, description = excluded.description,
  badge = excluded.badge, rating = excluded.rating, distance = excluded.distance,
  address = excluded.address, website = excluded.website, is_featured = excluded.is_featured,
  sort_order = excluded.sort_order;

insert into public.community_events (slug, title, description, starts_at, ends_at, location, event_type) values
  ('community-garden-planning-meeting', 'Community Garden Planning Meeting',
   'Help plan the Roland Community Garden: plot layout, the water line and who grows what in the first season. Bring ideas and a neighbour.',
   '2026-12-28 19:00 America/Chicago', '2026-12-28 20:30 America/Chicago', 'Roland Community Center', 'Planning'),
  ('new-year-neighbors-potluck', 'New Year Neighbors Potluck',
   'Start the year with a covered-dish supper. Newcomers especially welcome; drinks and tableware provided.',
   '2027-01-15 18:00 America/Chicago', '2027-01-15 20:00 America/Chicago', 'Roland Community Center', 'Social'),
  ('roland-small-business-meetup', 'Roland Small Business Meetup',
   'Owners and would-be owners of Roland businesses trade notes on marketing, permits and the busy spring season. Coffee on the house.',
   '2027-02-10 14:00 America/Chicago', '2027-02-10 15:30 America/Chicago', 'Roland Community Center', 'Business')
on conflict (slug) do update set
  title = excluded.title, description = excluded.description, starts_at = excluded.starts_at,
  ends_at = excluded.ends_at, location = excluded.location, event_type = excluded.event_type;

