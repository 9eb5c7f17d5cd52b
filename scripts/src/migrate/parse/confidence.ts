// How sure each reading of a line is (0 to 1); the classifier reads a line the way that scores highest.

/** A label says outright what the line is. */
export const SURE = 1
/** The content reads as the field with little doubt. */
export const LIKELY = 0.9
/** A street or road with no state or ZIP: an address more likely than not. */
export const PLAIN_ADDRESS = 0.6
/** A line no other reading beats is part of the description. */
export const DESCRIPTION = 0.3
