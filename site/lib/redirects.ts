/**
 * Linked paths whose content lives on another page (SPEC §2's footer links): each redirects to
 * the category page that lists those businesses.
 */
export const siteRedirects: Record<string, string> = {
  '/businesses/dining': '/dining-refreshments',
  '/businesses/shopping': '/shopping-convenience',
  '/businesses/services': '/professional-services',
}
