import type { LocationCategory } from '../catalog/types.ts'

/** How a business's category looks on its store image: a colour and an icon. */
export interface CategoryStyle {
  category: string
  /** '#rrggbb', from location_categories.color or a default. */
  color: string
  /** location_categories.icon_name, or a default the renderer can draw. */
  iconName: string
}

// 'Recreation' and 'Business' (SPEC §3) are business categories without a location category
// of their own: Recreation gets a lake-teal sailboat (Lake Maumelle), a generic business a
// burgundy awning with the building icon the site shows for unknown categories.
const defaultStyles: Record<string, Omit<CategoryStyle, 'category'>> = {
  recreation: { color: '#0f766e', iconName: 'sailboat' },
  business: { color: '#9f1239', iconName: 'building' },
}

/** Finds the colour and icon of a business category: its location category, else a default. */
export function categoryStyle(
  category: string,
  categories: ReadonlyArray<Pick<LocationCategory, 'name' | 'icon_name' | 'color' | 'category_type'>>,
): CategoryStyle {
  const key = category.trim().toLowerCase()
  const matches = categories.filter((c) => c.name.trim().toLowerCase() === key)
  // A business category wins over a same-named recreation or community one.
  const match = matches.find((c) => c.category_type === 'business') ?? matches[0]
  const fallback = defaultStyles[key] ?? defaultStyles.business!
  return {
    category: category.trim(),
    color: match && /^#[0-9a-f]{6}$/i.test(match.color.trim()) ? match.color.trim().toLowerCase() : fallback.color,
    iconName: match?.icon_name.trim() || fallback.iconName,
  }
}
