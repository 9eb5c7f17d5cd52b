import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { emailBody, listingChanges, sendSubmission, townTimeToIso, type ListingText } from './submission-form.ts'

const zone = 'America/Chicago'

const published: ListingText = {
  name: 'Roland Coffee House',
  phone: '(501) 555-0101',
  website: 'https://coffee.example',
  address: '18000 Highway 300',
  hours: 'Mon-Sat 6am-2pm',
  short_description: '',
  full_description: 'Small-batch coffee.',
  services: 'Espresso\nBiscuits: baked every morning',
}

describe('listingChanges', () => {
  test('names only the fields that differ, by column name', () => {
    expect(listingChanges(published, { ...published, phone: ' (501) 555-0199 ' })).toEqual({ phone: '(501) 555-0199' })
  })

  test('clears a field left blank and reads services line by line', () => {
    expect(listingChanges(published, { ...published, hours: '', services: 'Espresso\nPie: on Sundays' })).toEqual({
      hours: null,
      services: [
        { service_name: 'Espresso', description: null },
        { service_name: 'Pie', description: 'on Sundays' },
      ],
    })
  })

  test('sees no change in services written with other spacing', () => {
    expect(
      listingChanges(published, { ...published, services: ' Espresso \n\nBiscuits:  baked every morning' }),
    ).toEqual({})
  })
})

describe('townTimeToIso', () => {
  test("reads a time typed in Roland's time, in summer and in winter", () => {
    expect(townTimeToIso('2027-07-04T21:00', zone)).toBe('2027-07-05T02:00:00.000Z')
    expect(townTimeToIso('2027-12-24T18:30', zone)).toBe('2027-12-25T00:30:00.000Z')
  })

  test('leaves what is no time as it was typed, for the schema to refuse', () => {
    expect(townTimeToIso(' soon ', zone)).toBe('soon')
    expect(townTimeToIso('2027-02-30T10:00', zone)).toBe('2027-02-30T10:00')
    expect(townTimeToIso('', zone)).toBe('')
  })
})

describe('emailBody', () => {
  test('writes one "label: value" a line, leaving out blank fields', () => {
    expect(
      emailBody([
        ['Title', 'Bake sale'],
        ['Location', ' '],
        ['Description', 'Pies\nand cakes'],
      ]),
    ).toBe('Title: Bake sale\nDescription: Pies\nand cakes')
  })
})

describe('sendSubmission', () => {
  let close: (() => Promise<void>) | undefined
  afterEach(async () => {
    await close?.()
    close = undefined
  })

  /** A server that answers every POST with this status and body, recording what it received. */
  async function answering(status: number, body: string) {
    const received: Array<{ headers: Record<string, unknown>; body: string }> = []
    const server = createServer((req, res) => {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      req.on('end', () => {
        received.push({ headers: req.headers, body: text })
        res.writeHead(status, { 'content-type': 'application/json' }).end(body)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    close = () => new Promise<void>((resolve) => server.close(() => resolve()))
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/submit`, received }
  }

  const body = { kind: 'event' as const, payload: { title: 'Bake sale' }, contact: null }

  test("reads the console's 201 {id}, sending the Turnstile token as a header", async () => {
    const server = await answering(201, '{"id":"b5f0"}')
    expect(await sendSubmission({ url: server.url, apikey: null }, body, 'token-1')).toEqual({
      status: 'sent',
      id: 'b5f0',
    })
    expect(server.received[0]!.headers['x-turnstile-token']).toBe('token-1')
    expect(server.received[0]!.headers.apikey).toBeUndefined()
    expect(JSON.parse(server.received[0]!.body)).toEqual(body)
  })

  test("reads PostgREST's 200 with the id as a JSON string, sending the publishable key", async () => {
    const server = await answering(200, '"c6a1"')
    expect(await sendSubmission({ url: server.url, apikey: 'sb_publishable_x' }, body)).toEqual({
      status: 'sent',
      id: 'c6a1',
    })
    expect(server.received[0]!.headers.apikey).toBe('sb_publishable_x')
  })

  test('gives the message of a refusal, or its error', async () => {
    const limited = await answering(429, '{"message":"Too many suggestions from you this hour: try again later."}')
    expect(await sendSubmission({ url: limited.url, apikey: null }, body)).toEqual({
      status: 'refused',
      message: 'Too many suggestions from you this hour: try again later.',
    })
    await close?.()
    const refused = await answering(400, '{"error":"Unknown kind"}')
    expect(await sendSubmission({ url: refused.url, apikey: null }, body)).toEqual({
      status: 'refused',
      message: 'Unknown kind',
    })
  })

  test('says a server that cannot be reached was not reached', async () => {
    const server = await answering(201, '{}')
    await close!()
    close = undefined
    expect(await sendSubmission({ url: server.url, apikey: null }, body)).toMatchObject({ status: 'unreachable' })
  })
})
