import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Alert, Town } from '@roland/scripts/catalog/types'
import { capTime } from '@roland/scripts/content/alert-feeds'
import { alertsAtomFeed, capMessage } from '@roland/scripts/content/alert-xml'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { validateAgainstSchema, wellFormedProblems } from '../support/cap-validator.ts'

// The CAP 1.2 messages and the Atom feed of scripts/src/content/alert-xml.ts, checked with a real
// XML schema validator (xmllint) against OASIS's CAP 1.2 schema.

const town: Town = {
  name: 'Roland',
  state: 'Arkansas',
  state_code: 'AR',
  zip: '72135',
  county: 'Pulaski',
  tagline: 'Arkansas Community',
  time_zone: 'America/Chicago',
  country: 'US',
  latitude: 34.88,
  longitude: -92.5,
  coordinator_name: 'Pat',
  coordinator_email: 'pat@example.org',
  contact_email: 'hello@example.org',
  contact_phone: '(501) 555-0100',
}
const site = 'https://roland.example.org'

const boilWater: Alert = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  title: 'Boil water <before> drinking & cooking',
  body: 'A main broke on **Highway 300**.\n\nBoil tap water for one minute.',
  level: 'emergency',
  kind: 'water',
  area: 'North of Highway 300',
  starts_at: '2026-12-01T12:00:00.000Z',
  ends_at: '2026-12-03T12:00:00.000Z',
  status: 'published',
  published_at: '2026-12-01T12:00:05.123Z',
  ended_at: null,
  all_clear: null,
  updated_at: '2026-12-01T12:00:05.123Z',
  messages: [
    { id: 'm-1', sequence: 1, msg_type: 'Alert', all_clear: false, note: null, sent_at: '2026-12-01T12:00:05.123Z' },
  ],
}
const ended: Alert = {
  ...boilWater,
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  level: 'notice',
  kind: 'road',
  area: null,
  ends_at: null,
  status: 'ended',
  ended_at: '2026-12-02T15:30:00.000Z',
  all_clear: 'The road is open again.',
  messages: [
    {
      id: 'm-3',
      sequence: 3,
      msg_type: 'Update',
      all_clear: true,
      note: 'The road is open again.',
      sent_at: '2026-12-02T15:30:00.000Z',
    },
    { id: 'm-1', sequence: 1, msg_type: 'Alert', all_clear: false, note: null, sent_at: '2026-12-01T12:00:05.123Z' },
    { id: 'm-2', sequence: 2, msg_type: 'Update', all_clear: false, note: null, sent_at: '2026-12-01T18:00:00.000Z' },
  ],
}

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'roland-cap-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function written(name: string, xml: string): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, xml)
  return file
}

describe('capMessage', () => {
  test('writes a first publication as an Alert that the OASIS CAP 1.2 schema accepts', async () => {
    const xml = capMessage(boilWater, town, site)
    expect(await validateAgainstSchema([await written('first.cap.xml', xml)])).toBe('')
    expect(xml).toContain('<msgType>Alert</msgType>')
    expect(xml).toContain('<status>Actual</status>')
    expect(xml).toContain('<scope>Public</scope>')
    expect(xml).toContain('<severity>Severe</severity>')
    expect(xml).toContain('<urgency>Immediate</urgency>')
    expect(xml).toContain('<category>Infra</category>')
    expect(xml).toContain('<sender>roland.example.org</sender>')
    expect(xml).toContain('<sent>2026-12-01T06:00:05-06:00</sent>')
    expect(xml).toContain('<expires>2026-12-03T06:00:00-06:00</expires>')
    expect(xml).toContain('<areaDesc>North of Highway 300, Roland, AR 72135</areaDesc>')
    // Escaped by the library: the title's markup is text.
    expect(xml).toContain('<headline>Boil water &lt;before&gt; drinking &amp; cooking</headline>')
    expect(xml).not.toContain('<references>')
    expect(xml).not.toContain('AllClear')
  })

  test('writes an ended alert as an Update with references to every earlier message and AllClear', async () => {
    const xml = capMessage(ended, town, site)
    expect(await validateAgainstSchema([await written('ended.cap.xml', xml)])).toBe('')
    expect(xml).toContain('<identifier>m-3</identifier>')
    expect(xml).toContain('<msgType>Update</msgType>')
    expect(xml).toContain(
      '<references>roland.example.org,m-1,2026-12-01T06:00:05-06:00 roland.example.org,m-2,2026-12-01T12:00:00-06:00</references>',
    )
    expect(xml).toContain('<responseType>AllClear</responseType>')
    expect(xml).toContain('<severity>Minor</severity>')
    expect(xml).toContain('<category>Transport</category>')
    expect(xml).toContain('<areaDesc>Roland, AR 72135</areaDesc>')
    expect(xml).toContain('<expires>2026-12-02T09:30:00-06:00</expires>')
  })

  test('the schema check fails a message that breaks the standard', async () => {
    const broken = capMessage(boilWater, town, site).replace('<scope>Public</scope>', '<scope>Everyone</scope>')
    expect(await validateAgainstSchema([await written('broken.cap.xml', broken)])).toMatch(/scope/)
    const zulu = capMessage(boilWater, town, site)
      .replace('-06:00</sent>', 'Z</sent>')
      .replace(/T06:00:05Z/, 'T12:00:05Z')
    expect(await validateAgainstSchema([await written('zulu.cap.xml', zulu)])).toMatch(/sent/)
  })

  test('capTime writes the town’s clock with its offset and no fraction', () => {
    expect(capTime('2026-07-04T02:00:00.500Z', 'America/Chicago')).toBe('2026-07-03T21:00:00-05:00')
  })
})

describe('alertsAtomFeed', () => {
  test('is well-formed Atom with an entry per alert, linking its page and its CAP message', async () => {
    const xml = alertsAtomFeed([boilWater, ended], town, site, new Date('2026-12-02T16:00:00Z'))
    // Well-formed XML (xmllint parses it, no schema): an error here names the line.
    const file = await written('alerts.xml', xml)
    expect(await wellFormedProblems([file])).toBe('')
    expect(await wellFormedProblems([await written('cut.xml', xml.slice(0, -20))])).toMatch(/error/)
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">')
    expect(xml.match(/<entry>/g)).toHaveLength(2)
    expect(xml).toContain(`<link rel="alternate" type="text/html" href="${site}/alerts/${boilWater.id}"/>`)
    expect(xml).toContain(`href="${site}/alerts/${ended.id}.cap.xml"`)
    expect(xml).toContain('<title>Notice: Boil water &lt;before&gt; drinking &amp; cooking (all clear)</title>')
    expect(xml).toContain('<updated>2026-12-02T15:30:00.000Z</updated>')
  })
})
