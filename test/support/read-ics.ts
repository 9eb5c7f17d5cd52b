import ICAL from 'ical.js'

// Reading an .ics file back in the tests, with ical.js (the library the site writes with and
// calendar feeds are read with), not a reader of our own: the counterpart of site/lib/ics.ts.

/** A property's value as its .ics text gives it, unescaped: a DATE-TIME as 20261229T010000Z, a TEXT as written. */
function valueText(property: ICAL.Property): string {
  return property
    .getValues()
    .map((value) => (value instanceof ICAL.Time ? value.toICALString() : String(value)))
    .join(',')
}

/** A component's properties by upper-case name (the first of each name), as text. */
function propertiesOf(component: ICAL.Component): Record<string, string> {
  const found: Record<string, string> = {}
  for (const property of component.getAllProperties()) found[property.name.toUpperCase()] ??= valueText(property)
  return found
}

/** Reads an .ics text with ical.js: the calendar's own properties and each VEVENT's, by name. */
export function readIcs(text: string): { calendar: Record<string, string>; events: Array<Record<string, string>> } {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[])
  return { calendar: propertiesOf(calendar), events: calendar.getAllSubcomponents('vevent').map(propertiesOf) }
}
