// The suggestion forms' settings as this build read them (integrations/submissions.ts writes them
// into the code): pages and islands import them from here.

/** Where the forms send suggestions, with the key and the Turnstile site key; null: the forms are email links. */
export const submissions = __ROLAND_SUBMISSIONS__
