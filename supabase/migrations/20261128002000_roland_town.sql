-- A store without a town is Roland's (issue 39). The release before town settings and pages
-- served only Roland, with the town's words in its code; 20261128000100_town_settings.sql and
-- 20261128000200_pages.sql added the tables empty, so a store made by that release lost its home
-- page, /events, /contact and every text page after the upgrade. This gives a database that has no
-- town yet (a store of that release, or a new database before its seed) Roland's settings and the
-- words its pages had, and changes nothing in a database that has a town: Roland's (seeded), or
-- another town's (`roland town init`, which replaces all of it). These are the only copy of
-- Roland's settings and page texts: the seed no longer repeats them.
--
-- The coordinator is SAMPLE CONTENT, a made-up person on a reserved .example domain, to be
-- replaced from the console's Town screen before the site goes public.
--
-- Bodies are Markdown. List pages keep their entries in items: the emergency numbers, the nearby
-- towns. Elsewhere an entry whose website is a path of the site is a card leading there (shown
-- while that page is published), and the home page's entries are its sections, in this order: the
-- garden teaser, the featured businesses, recreation, community life, the garden card, then the
-- four headline figures' labels (the last two with their values).

-- The pages first: they are added only while the store has no town (the settings row below).
insert into public.pages (path, title, description, intro, body, items)
select v.path, v.title, v.description, v.intro, v.body, v.items::jsonb
  from (values
  ('/', 'Roland, Arkansas',
   'Roland, Arkansas (72135): local businesses, Pinnacle Mountain and Lake Maumelle, community services and events, where nature meets community.',
   'Welcome to Roland, where nature meets community. Between the quiet shores of Lake Maumelle and the trails of Pinnacle Mountain, neighbours run the shops, cafés and services that make this corner of Pulaski County home.',
   '',
   '[{"name": "Roland Community Garden", "note": "Raised beds, a shared tool shed and a season of planting together. See the plans.", "website": "/community/garden"},
     {"name": "Featured Local Businesses", "note": "Meet the community entrepreneurs who keep Roland running, from the first cup of coffee to automotive services."},
     {"name": "Recreation & Attractions", "note": "Summits, lakes and trails within a short drive: the outdoors is Roland''s backyard."},
     {"name": "Community Life", "note": "Where Roland gathers, keeps safe, worships and learns."},
     {"name": "Roland Community Garden - Coming Soon!", "note": "Shared beds for growing vegetables, flowers and friendships. Find out how to reserve a plot or lend a hand.", "website": "/community/garden"},
     {"name": "Local Businesses"},
     {"name": "Attractions"},
     {"name": "Faith Communities", "note": "6"},
     {"name": "Community", "note": "1"}]'),
  ('/businesses', 'Local Businesses', null,
   'Shops, cafés, garages and services run by your neighbours. Search by name or description, or pick a category.',
   '', '[]'),
  ('/events', 'Community Events',
   'Upcoming community events in Roland, Arkansas: planning meetings, potlucks and business meetups.',
   'Events are managed by our community coordinator, Dana Whitfield. Business updates and event submissions are welcome via the Contact page.',
   '', '[]'),
  ('/contact', 'Contact',
   'Send business updates and event submissions to Roland''s community coordinator.',
   'Business updates and event submissions are welcome. They go to our community coordinator, who keeps this site and the events calendar current.',
   '', '[]'),
  ('/404', 'Oops! Page not found',
   'This page does not exist on the Roland, Arkansas community site.',
   'The page you were looking for has moved or never existed.',
   '', '[]'),
  ('/about', 'About Roland',
   'About Roland, Arkansas (72135): an unincorporated community in western Pulaski County between Pinnacle Mountain and Lake Maumelle.',
   'A rural community on the western edge of Pulaski County, where the Ouachita foothills meet the Arkansas River valley.',
   E'Roland is an unincorporated community in Pulaski County, Arkansas, with the ZIP code 72135. It lies west of Little Rock, between Pinnacle Mountain and Lake Maumelle, along Highway 300 and Highway 10 and the south bank of the Arkansas River.\n\n'
   'Homes sit on wooded lots and small farms, and much of daily life runs through a handful of family-owned stores, cafés and services. The outdoors is close: Pinnacle Mountain State Park, the Arkansas Arboretum, the eastern end of the Ouachita National Recreation Trail and the lake are all minutes away.\n\n'
   '## Getting around\n\n'
   'Roland has no city government of its own: roads, law enforcement and most services come from Pulaski County. Mail goes to the Roland post office under ZIP 72135.\n\n'
   'Questions or corrections about this page? Write via the [Contact page](/contact).\n',
   '[{"name": "Nearby", "note": "Attractions and towns around Roland, nearest first.", "website": "/nearby"}]'),
  ('/about/education', 'Education',
   'Schools, libraries and learning for every age in Roland, Arkansas.',
   'Schools, the library and learning for every age in the Roland area.',
   E'## Public schools\n\n'
   'Roland lies in Pulaski County, and its public school students attend schools of the Pulaski County Special School District. Attendance zones follow your street address: check the district’s school finder, or call the district office, before you enroll.\n\n'
   '## Libraries\n\n'
   'The Central Arkansas Library System serves Pulaski County; a library card is free to county residents and opens its branches, e-books and homework help to the whole family.\n\n'
   '## Learning outdoors\n\n'
   'Pinnacle Mountain State Park’s visitor center runs nature programs through the year, and the paved Arkansas Arboretum loop is a gentle outdoor classroom for young hikers. See [Natural Attractions](/recreation/nature).\n\n'
   '## Share what you know\n\n'
   'Preschools, tutors, homeschool groups and adult classes in the Roland area can be added here: send the details via the [Contact page](/contact).\n',
   '[]'),
  ('/about/history', 'History',
   'How Roland, Arkansas and the Big Maumelle valley came to be.',
   'From the Big Maumelle valley settlers to today: how Roland came to be.',
   E'Roland grew up where the Big and Little Maumelle rivers come down out of the Ouachita foothills toward the Arkansas River: a country of small farms, timber and river bottoms, a long way by wagon from Little Rock.\n\n'
   '## The lake\n\n'
   'In the 1950s the Big Maumelle was dammed to make Lake Maumelle, the reservoir that still supplies drinking water to central Arkansas. Its protected watershed is one reason the country around Roland has stayed so wooded and quiet.\n\n'
   '## The park\n\n'
   'Pinnacle Mountain State Park opened in the 1970s around the peak that has always been Roland’s landmark. With it came the Arkansas Arboretum and, at its foot, the eastern trailhead of the Ouachita National Recreation Trail.\n\n'
   '## Help us tell it\n\n'
   'Family stories, old photographs and church and school histories would make this page far richer. If you have some to share, write via the [Contact page](/contact).\n',
   '[]'),
  ('/community', 'Community',
   'Community centers, emergency services, faith communities, the community garden and events in Roland, Arkansas.',
   'Roland is small enough that neighbours know each other by name. Here is where we gather, who to call, and what is coming up.',
   E'Community events are managed by our community coordinator, Dana Whitfield. Business updates and event submissions are welcome via the [Contact page](/contact).\n',
   '[{"name": "Community Garden", "note": "Coming Soon - Growing Our Community Together! Plans, plots and how to help.", "website": "/community/garden"}]'),
  ('/community/centers', 'Community Centers',
   'Where Roland, Arkansas gathers: meeting places and what is happening there.',
   'Places where Roland gathers: meeting rooms, the library branch and the community garden site.',
   E'## Booking a room\n\n'
   'Planning a club meeting, a shower or a fundraiser? Ask Dana Whitfield, our community coordinator, about dates and rooms via the [Contact page](/contact).\n\n'
   'Events open to everyone can be added to the [community calendar](/events).\n',
   '[]'),
  ('/community/emergency', 'Emergency Services',
   'Emergency and non-emergency numbers for Roland, Arkansas (72135).',
   'Fire, sheriff, ambulance and the numbers to keep by the phone.',
   E'## Be ready\n\n'
   '- Make sure your house number is visible from the road, day and night: rural addresses are hard to find.\n'
   '- Keep a list of medicines and allergies on the refrigerator for responders.\n'
   '- Tornado season runs from spring into early summer: know where you will shelter.\n',
   '[{"name": "Emergency: fire, ambulance, sheriff", "phone": "911", "note": "Any threat to life or property. Give the nearest highway and mile marker if you are outdoors."},
     {"name": "Pulaski County Sheriff’s Office (non-emergency)", "phone": "(501) 340-6600", "note": "Roland is unincorporated, so the county sheriff is its law enforcement."},
     {"name": "Poison Help", "phone": "1-800-222-1222", "note": "Free, confidential, around the clock."},
     {"name": "Arkansas 811: call before you dig", "phone": "811", "note": "Have buried lines marked before fencing, planting or building."}]'),
  ('/community/faith', 'Faith Communities',
   'The congregations of Roland, Arkansas and the surrounding valley.',
   'The churches of Roland and the surrounding valley, and when they meet.',
   E'6 congregations meet in and around Roland, from country churches that have gathered for generations to newer fellowships. Many host potlucks, vacation Bible school in summer and food drives in the holidays, and most welcome visitors.\n\n'
   '## Listing your congregation\n\n'
   'We are gathering service times, addresses and contacts for a directory on this page. Pastors and members can send their congregation’s details to Dana Whitfield, our community coordinator, through the [Contact page](/contact): name, address, service times, and a phone number or website.\n\n'
   '## Community events\n\n'
   'Events open to the whole community, such as concerts, fish fries and clothing drives, belong on the [community calendar](/events).\n',
   '[]'),
  ('/community/garden', 'Roland Community Garden - Coming Soon!',
   'The Roland Community Garden is coming soon: plans, plots and how to help.',
   'Coming Soon - Growing Our Community Together!',
   E'Roland is planning a community garden: shared raised beds where families, schools and retirees can grow vegetables and flowers side by side, with a tool shed, a water line and a shady bench for swapping advice.\n\n'
   '## What is planned\n\n'
   '- Raised beds to rent for the season, including waist-high beds for gardeners who cannot kneel.\n'
   '- A shared tool shed and compost bins.\n'
   '- A children’s bed, planted with local school classes.\n'
   '- Extra produce shared with neighbours who need it.\n\n'
   '## How to help\n\n'
   'Volunteers, donated lumber and gardening know-how are all welcome. Tell Dana Whitfield, our community coordinator, how you would like to take part via the [Contact page](/contact).\n',
   '[]'),
  ('/nearby', 'Nearby',
   'Attractions and towns near Roland, Arkansas, nearest first.',
   'What is within a short drive of Roland, nearest first.',
   '',
   '[{"name": "Little Rock", "note": "The state capital, east along Highway 10: hospitals, the airport, the River Market and the state’s museums."},
     {"name": "Maumelle", "note": "Across the Arkansas River to the north-east: shopping, parks and the riverside trails."},
     {"name": "Ferndale", "note": "West past Lake Maumelle on Highway 10, into the quiet Ouachita foothills."}]'),
  ('/recreation', 'Recreation & Attractions',
   'Pinnacle Mountain, Lake Maumelle, trails, golf and ball fields around Roland, Arkansas.',
   'From the summit of Pinnacle Mountain to a quiet evening on Lake Maumelle, Roland''s outdoors are minutes away.',
   '',
   '[{"name": "Detailed Recreation Guide Coming Soon", "note": "Trail maps, seasonal tips, boat ramps and where to park for each trailhead are on the way. Tell us what you would like to see in it.", "website": "/contact"}]')
  ) as v(path, title, description, intro, body, items)
 where not exists (select from public.town_settings)
on conflict (path) do nothing;

insert into public.town_settings (id, name, state, state_code, zip, county, tagline, time_zone, country,
                                  latitude, longitude, coordinator_name, coordinator_email, contact_email, contact_phone)
select 1, v.name, v.state, v.state_code, v.zip, v.county, v.tagline, v.time_zone, v.country,
       v.latitude, v.longitude, v.coordinator_name, v.coordinator_email, v.contact_email, v.contact_phone
  from (values
  ('Roland', 'Arkansas', 'AR', '72135', 'Pulaski County', 'Arkansas Community', 'America/Chicago', 'US',
     34.8962, -92.4957, 'Dana Whitfield', 'events@roland-ar.example', 'events@roland-ar.example', null)
  ) as v(name, state, state_code, zip, county, tagline, time_zone, country, latitude, longitude,
         coordinator_name, coordinator_email, contact_email, contact_phone)
on conflict (id) do nothing;
