import {
  attractionCategories,
  attractionCreateSchema,
  attractionPatchSchema,
  type AttractionRow,
} from '@roland/scripts/content/schema-base'
import { ContentListEditor, type ContentKind } from '../components/ContentListEditor.tsx'
import { Badge } from '../components/ui.tsx'

type Draft = {
  name: string
  category: (typeof attractionCategories)[number]
  description: string
  badge: string
  rating: string
  distance: string
  address: string
  website: string
  sort_order: string
  is_featured: boolean
  is_active: boolean
}

// Numbers typed in a form are sent as numbers, blank as none; what is no number goes as typed,
// so the shared schema names the field.
const numberOf = (text: string) => (text.trim() === '' ? null : Number.isNaN(Number(text)) ? text : Number(text))

const attractions: ContentKind<AttractionRow, Draft> = {
  one: 'attraction',
  many: 'attractions',
  table: 'attractions',
  nameOf: (attraction) => attraction.name,
  itemData: (attraction) => ({ 'data-attraction': attraction.id }),
  summary: (attraction) => (
    <>
      <h2 className="font-semibold">{attraction.name}</h2>
      <Badge>{attraction.category}</Badge>
      {attraction.is_featured ? <Badge tone="success">featured</Badge> : null}
      {attraction.is_active ? null : <Badge tone="pending">hidden</Badge>}
    </>
  ),
  createSchema: attractionCreateSchema,
  patchSchema: attractionPatchSchema,
  emptyDraft: {
    name: '',
    category: 'Natural Attractions',
    description: '',
    badge: '',
    rating: '',
    distance: '',
    address: '',
    website: '',
    sort_order: '100',
    is_featured: false,
    is_active: true,
  },
  bodyOf: (draft) => ({ ...draft, rating: numberOf(draft.rating), sort_order: numberOf(draft.sort_order) ?? 0 }),
  fields: [
    { kind: 'text', key: 'name', label: 'Name' },
    { kind: 'select', key: 'category', label: 'Category', options: attractionCategories },
    { kind: 'text', key: 'badge', label: 'Badge' },
    { kind: 'text', key: 'rating', label: 'Rating (0 to 5)' },
    { kind: 'text', key: 'distance', label: 'Distance' },
    { kind: 'text', key: 'address', label: 'Address' },
    { kind: 'text', key: 'website', label: 'Website' },
    { kind: 'text', key: 'sort_order', id: 'order', label: 'Order' },
    { kind: 'checkbox', key: 'is_featured', id: 'featured', label: 'Featured (leads the home page)' },
    { kind: 'checkbox', key: 'is_active', id: 'active', label: 'Shown on the site' },
    { kind: 'textarea', key: 'description', label: 'Description', rows: 4 },
  ],
  savedMessage: (attraction) => `Saved ${attraction.name}`,
}

/** Attractions and recreation: the places of the recreation pages and /attraction/{id}. */
export function Attractions() {
  return <ContentListEditor kind={attractions} />
}
