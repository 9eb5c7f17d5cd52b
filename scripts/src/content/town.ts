// The town itself, for the site, the console and the jobs alike. Free of imports: the site's
// "open now" script ships this to the browser.

/** Roland keeps Central Time: opening hours and event times are in it; the database keeps UTC. */
export const townTimeZone = 'America/Chicago'
