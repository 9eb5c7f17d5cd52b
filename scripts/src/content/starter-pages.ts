import type { Page, PageItem } from '../catalog/types.ts'
import type { Actor } from '../operators/schema.ts'
import { z } from 'zod'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { alwaysPublishedPaths, pageCreateSchema, type PageCreate } from './schema.ts'

// The pages a new town starts with (`roland town init`, issue 39): every page of the site, with
// neutral words written around the town's name, for its editors to make their own in the console's
// Pages screen. Nothing here names a real place: the emergency list holds only the number every
// caller in the US knows, and the lists a town must fill (its centres, congregations, neighbours)
// start empty or with a placeholder to replace. The entries' order on the home page is its layout's
// (see supabase/migrations/20261128002000_roland_town.sql).

/** What the starter texts are written around: the town's settings (town_settings). */
export interface StarterTown {
  name: string
  state?: string | undefined
  county?: string | undefined
  coordinator_name?: string | undefined
}

/** Every page of the site with neutral starting words for `town`. */
export function starterPages(town: StarterTown): PageCreate[] {
  const name = town.name.trim()
  const place = town.state?.trim() ? `${name}, ${town.state.trim()}` : name
  const county = town.county?.trim() || 'the county'
  return [
    {
      path: '/',
      title: place,
      description: `${place}: local businesses, things to do, community services and events.`,
      intro: `Welcome to ${name}. Find the shops, services and places that make ${name} home, and what is happening this season.`,
      body: '',
      items: [
        {
          name: `${name} Community Garden`,
          note: 'A place to grow together. See the plans.',
          website: '/community/garden',
        },
        {
          name: 'Featured Local Businesses',
          note: `Meet the people who keep ${name} running.`,
        },
        { name: 'Recreation & Attractions', note: `Parks, trails and places to visit near ${name}.` },
        { name: 'Community Life', note: `Where ${name} gathers, keeps safe, worships and learns.` },
        {
          name: `${name} Community Garden`,
          note: 'Find out how to take part.',
          website: '/community/garden',
        },
        { name: 'Local Businesses' },
        { name: 'Attractions' },
        { name: 'Faith Communities', note: '0' },
        { name: 'Community', note: '1' },
      ],
    },
    {
      path: '/businesses',
      title: 'Local Businesses',
      description: null,
      intro: `Shops, services and places to eat in ${name}. Search by name or description, or pick a category.`,
      body: '',
      items: [],
    },
    {
      path: '/events',
      title: 'Community Events',
      description: `Upcoming community events in ${place}.`,
      intro: town.coordinator_name?.trim()
        ? `Events are managed by our community coordinator, ${town.coordinator_name.trim()}. Business updates and event submissions are welcome via the Contact page.`
        : 'Business updates and event submissions are welcome via the Contact page.',
      body: '',
      items: [],
    },
    {
      path: '/contact',
      title: 'Contact',
      description: `Send business updates and event submissions to ${name}'s community coordinator.`,
      intro:
        'Business updates and event submissions are welcome. They go to our community coordinator, who keeps this site and the events calendar current.',
      body: '',
      items: [],
    },
    {
      path: '/404',
      title: 'Page not found',
      description: `This page does not exist on the ${place} community site.`,
      intro: 'The page you were looking for has moved or never existed.',
      body: '',
      items: [],
    },
    {
      path: '/about',
      title: `About ${name}`,
      description: `About ${place}: the community, its history and how to get around.`,
      intro: `What to know about ${name}.`,
      body:
        `${name} is a community in ${county}. This page is waiting for its story: where the town lies, how people live ` +
        'and work here, and what a newcomer should know.\n\n' +
        '## Getting around\n\n' +
        'Roads, post office and the services residents rely on can be described here.\n\n' +
        'Questions or corrections about this page? Write via the [Contact page](/contact).\n',
      items: [{ name: 'Nearby', note: `Attractions and towns around ${name}, nearest first.`, website: '/nearby' }],
    },
    {
      path: '/about/education',
      title: 'Education',
      description: `Schools, libraries and learning for every age in ${place}.`,
      intro: `Schools, the library and learning for every age in ${name}.`,
      body:
        '## Public schools\n\nWhich schools serve the town, and how to find out which one your address belongs to.\n\n' +
        '## Libraries\n\nThe nearest library, its hours and what a card opens.\n\n' +
        '## Share what you know\n\nPreschools, tutors and classes can be added here: send the details via the [Contact page](/contact).\n',
      items: [],
    },
    {
      path: '/about/history',
      title: 'History',
      description: `How ${place} came to be.`,
      intro: `How ${name} came to be.`,
      body:
        `The history of ${name} is still to be written.\n\n` +
        '## Help us tell it\n\n' +
        'Family stories, old photographs and church and school histories would make this page far richer. If you have ' +
        'some to share, write via the [Contact page](/contact).\n',
      items: [],
    },
    {
      path: '/community',
      title: 'Community',
      description: `Community centers, emergency services, faith communities and events in ${place}.`,
      intro: `Where ${name} gathers, who to call, and what is coming up.`,
      body: 'Business updates and event submissions are welcome via the [Contact page](/contact).\n',
      items: [{ name: 'Community Garden', note: 'Plans, plots and how to help.', website: '/community/garden' }],
    },
    {
      path: '/community/centers',
      title: 'Community Centers',
      description: `Where ${place} gathers: meeting places and what is happening there.`,
      intro: `Places where ${name} gathers.`,
      body:
        '## Booking a room\n\nPlanning a meeting or a fundraiser? Ask our community coordinator about dates and rooms ' +
        'via the [Contact page](/contact).\n',
      items: [],
    },
    {
      path: '/community/emergency',
      title: 'Emergency Services',
      description: `Emergency and non-emergency numbers for ${place}.`,
      intro: 'The numbers to keep by the phone.',
      body:
        '## Be ready\n\n' +
        '- Make sure your house number is visible from the road, day and night.\n' +
        '- Keep a list of medicines and allergies where responders will find it.\n',
      items: [
        {
          name: 'Emergency: fire, ambulance, police',
          phone: '911',
          note: 'Any threat to life or property.',
        },
      ],
    },
    {
      path: '/community/faith',
      title: 'Faith Communities',
      description: `The congregations of ${place}.`,
      intro: `The congregations of ${name}, and when they meet.`,
      body:
        '## Listing your congregation\n\nPastors and members can send their congregation’s name, address, service ' +
        'times and a phone number or website through the [Contact page](/contact).\n',
      items: [],
    },
    {
      path: '/community/garden',
      title: `${name} Community Garden`,
      description: `The ${name} Community Garden: plans, plots and how to help.`,
      intro: 'Growing our community together.',
      body:
        `${name} is planning a community garden.\n\n` +
        '## How to help\n\nVolunteers and gardening know-how are welcome: write via the [Contact page](/contact).\n',
      items: [],
    },
    {
      path: '/nearby',
      title: 'Nearby',
      description: `Attractions and towns near ${place}, nearest first.`,
      intro: `What is within a short drive of ${name}, nearest first.`,
      body: '',
      items: [],
    },
    {
      path: '/recreation',
      title: 'Recreation & Attractions',
      description: `Parks, trails and places to visit around ${place}.`,
      intro: `The outdoors and places to visit around ${name}.`,
      body: '',
      items: [
        {
          name: 'Recreation Guide Coming Soon',
          note: 'Tell us what you would like to see in it.',
          website: '/contact',
        },
      ],
    },
  ]
}

/**
 * Puts `pages` in place of every page of the store, in one audited change, after checking each with
 * the pages' shared schema (a bad page fails with its path and what is wrong, and nothing changes).
 */
export async function replacePages(store: Store, pages: PageCreate[], actor: Actor | null): Promise<number> {
  const answer = await callParsed(
    store,
    'replace_pages',
    { pages: checkedPages(pages), actor },
    z.object({ status: z.literal('ok'), pages: z.number().int() }),
  )
  return answer.pages
}

/** Checks each page with the pages' shared schema: a bad page fails with its path and what is wrong. */
export function checkedPages(pages: PageCreate[]) {
  return pages.map((page) => {
    const parsed = pageCreateSchema.safeParse(page)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new Error(`The page ${page.path} is not valid: ${issue?.path.join('.')}: ${issue?.message}`)
    }
    return parsed.data
  })
}

/**
 * A build's pages with the ones the site cannot do without (the home page, /businesses, /events,
 * /contact, /404): a store that has no row for one (its pages table empty or cut short) still gets
 * the page, with the starting words for its town, rather than a site without a home page.
 */
export function withAlwaysPublishedPages(pages: readonly Page[], town: StarterTown): Page[] {
  const held = new Set(pages.map((page) => page.path))
  const missing = alwaysPublishedPaths.filter((path) => !held.has(path))
  if (!missing.length) return [...pages]
  const starters = new Map(starterPages(town).map((page) => [page.path, page] as const))
  return [
    ...pages,
    ...missing.map((path): Page => {
      const page = starters.get(path)!
      return {
        path,
        title: page.title ?? path,
        description: page.description ?? null,
        intro: page.intro ?? null,
        body: page.body ?? '',
        // An entry's empty fields are left out, as the catalog reads them.
        items: (page.items ?? []).map(
          (item) => Object.fromEntries(Object.entries(item).filter(([, value]) => value != null)) as PageItem,
        ),
      }
    }),
  ]
}
