import type { TownSettings } from './schema.ts'

// The words a new town starts with (`roland town init`): neutral texts written around the town's
// name, for the operators to make their own in the console. Nothing here names any one town.
// Starter content of another kind (the pages) is added beside categoryDescriptions, as a key of
// StarterContent that public.init_town writes.

/** What `roland town init` writes besides the settings: {"category_descriptions": {slug: text}}. */
export interface StarterContent {
  category_descriptions: Record<string, string>
}

/** The description of each seeded category (supabase/seed.sql's slugs), for a town by its name. */
export function starterCategoryDescriptions(town: Pick<TownSettings, 'name'>): Record<string, string> {
  const { name } = town
  return {
    'dining-refreshments': `Cafés, diners and places to eat and drink in and around ${name}.`,
    'shopping-convenience': `Groceries, fuel, hardware and gifts close to home in ${name}.`,
    'professional-services': `Repairs, insurance, health and home services run by ${name} neighbours.`,
    sports: `Ball fields, golf, trails and fitness in and around ${name}.`,
    nature: `Parks, trails and natural places near ${name}.`,
    premium: `Special outings near ${name} worth planning a day around.`,
    centers: `Places where ${name} gathers: meeting rooms, libraries and halls.`,
    emergency: 'Fire, sheriff, ambulance and the numbers to keep by the phone.',
    faith: `The congregations of ${name} and when they meet.`,
    education: `Schools, the library and learning for every age in the ${name} area.`,
    history: `How ${name} came to be, and the people who made it.`,
  }
}

/** Everything a new town starts with besides its settings. */
export function starterContent(town: Pick<TownSettings, 'name'>): StarterContent {
  return { category_descriptions: starterCategoryDescriptions(town) }
}
