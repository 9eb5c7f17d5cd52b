import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../../test/crawl-fixture-server.ts'
import { closedPort } from '../../test/support/free-port.ts'
import { CrawlError } from './crawl-error.ts'
import { classifyAddress, decodeText, isAllowedAddress, safeFetch, USER_AGENT } from './safe-fetch.ts'

async function failure(promise: Promise<unknown>): Promise<CrawlError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(CrawlError)
  return error as CrawlError
}

describe('classifyAddress', () => {
  test.each([
    ['93.184.215.14', 'public'],
    ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.10.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['169.254.169.254', 'cloud-metadata'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
  ])('classifies %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind)
  })
})

describe('isAllowedAddress', () => {
  test('allows private addresses only when private networks are allowed', () => {
    expect(isAllowedAddress('192.168.1.1')).toBe(false)
    expect(isAllowedAddress('192.168.1.1', true)).toBe(true)
  })

  test('never allows a cloud metadata address, even for local tests', () => {
    expect(isAllowedAddress('169.254.169.254', true)).toBe(false)
  })
})

describe('safeFetch', () => {
  let site: FixtureSite
  let inFlight = 0
  let mostInFlight = 0

  beforeAll(async () => {
    site = await startFixtureSite('wordpress-bakery', {
      '/loop-a': (_request, response) => void response.writeHead(302, { location: '/loop-b' }).end(),
      '/loop-b': (_request, response) => void response.writeHead(301, { location: '/loop-a' }).end(),
      '/hop': (request, response) => {
        const hop = Number(new URL(request.url ?? '', 'http://x').searchParams.get('n'))
        response.writeHead(302, { location: `/hop?n=${hop + 1}` }).end()
      },
      '/moved': (_request, response) => void response.writeHead(301, { location: '/about-us/' }).end(),
      '/to-metadata': (_request, response) =>
        void response
          .writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' })
          .end(),
      '/to-file': (_request, response) => void response.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/huge': (_request, response) => {
        // 20 MB of markup, written as fast as the client reads, stopped as soon as it hangs up.
        response.writeHead(200, { 'content-type': 'text/html' })
        const chunk = Buffer.from(`<p>${'Fresh bread daily. '.repeat(3000)}</p>\n`)
        let sent = 0
        const pump = (): void => {
          while (sent < 20 * 1024 * 1024) {
            sent += chunk.length
            if (!response.write(chunk)) return void response.once('drain', pump)
          }
          response.end()
        }
        response.on('close', () => (sent = Infinity))
        pump()
      },
      '/gzip-bomb': (_request, response) => {
        const body = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20))
        response
          .writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': body.length })
          .end(body)
      },
      '/gzipped': (_request, response) => {
        const body = gzipSync(Buffer.from('<html><body><h1>Main Street Bakery</h1></body></html>'))
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' }).end(body)
      },
      '/never-answers': () => {
        // Holds the connection open without a byte, like an overloaded shared host.
      },
      '/counted': (_request, response) => {
        inFlight += 1
        mostInFlight = Math.max(mostInFlight, inFlight)
        setTimeout(() => {
          inFlight -= 1
          response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
        }, 15)
      },
      '/old-windows-page': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end(
          Buffer.from(
            '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body>Caf\xe9</body></html>',
            'latin1',
          ),
        )
      },
    })
  })

  afterAll(async () => {
    await site.close()
  })

  test('fetches a local page when private networks are allowed, saying who is asking', async () => {
    const response = await safeFetch(site.url('/about-us/'), { allowPrivateNetwork: true })
    expect(response.status).toBe(200)
    expect(response.contentType).toBe('text/html')
    expect(decodeText(response)).toContain('Ruth and Dale Henderson')
    expect(site.requests.at(-1)?.userAgent).toBe(USER_AGENT)
  })

  test('refuses a loopback address when private networks are not allowed', async () => {
    const error = await failure(safeFetch(site.url('/')))
    expect(error.code).toBe('blocked-address')
    expect(error.message).toContain('loopback')
    expect(error.message).toContain('allowPrivateNetwork')
  })

  test('refuses a host name that resolves to a loopback address', async () => {
    const port = new URL(site.origin).port
    const error = await failure(safeFetch(`http://localhost:${port}/`))
    expect(error.code).toBe('blocked-address')
    expect(error.message).toContain('localhost')
  })

  test('resolves a host name itself and connects when the address is allowed', async () => {
    const port = new URL(site.origin).port
    const response = await safeFetch(`http://localhost:${port}/about-us/`, { allowPrivateNetwork: true })
    expect(response.status).toBe(200)
  })

  test('refuses IPv6 loopback and IPv4-mapped loopback literals', async () => {
    expect((await failure(safeFetch('http://[::1]/'))).code).toBe('blocked-address')
    expect((await failure(safeFetch('http://[::ffff:127.0.0.1]/'))).code).toBe('blocked-address')
  })

  test('refuses the cloud metadata address even when private networks are allowed', async () => {
    const error = await failure(safeFetch('http://169.254.169.254/latest/meta-data/', { allowPrivateNetwork: true }))
    expect(error.code).toBe('blocked-address')
    expect(error.message).toContain('cloud metadata')
  })

  test('checks the address again after a redirect', async () => {
    const error = await failure(safeFetch(site.url('/to-metadata'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('blocked-address')
    expect(error.url).toBe('http://169.254.169.254/latest/meta-data/iam/security-credentials/')
  })

  test('follows a redirect and reports where it landed', async () => {
    const response = await safeFetch(site.url('/moved'), { allowPrivateNetwork: true })
    expect(response.url).toBe(site.url('/about-us/'))
    expect(response.redirects).toEqual([site.url('/about-us/')])
  })

  test('refuses to follow a redirect to a non-web address', async () => {
    const error = await failure(safeFetch(site.url('/to-file'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('invalid-url')
  })

  test('stops a redirect loop', async () => {
    const error = await failure(safeFetch(site.url('/loop-a'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('too-many-redirects')
    expect(error.message).toContain('loop')
  })

  test('stops after five redirects', async () => {
    const error = await failure(safeFetch(site.url('/hop?n=0'), { allowPrivateNetwork: true }))
    expect(error.code).toBe('too-many-redirects')
    expect(error.message).toContain('more than 5 times')
  })

  test('asks with HEAD for the status and headers alone, whatever size the page says it has', async () => {
    const response = await safeFetch(site.url('/gzip-bomb'), {
      allowPrivateNetwork: true,
      method: 'HEAD',
      maxBytes: 1024,
      userAgent: 'RolandCommunityBot/1.0 (listing check)',
    })
    expect(response).toMatchObject({ status: 200, contentType: 'text/html', body: new Uint8Array() })
    expect(site.requests.at(-1)?.userAgent).toBe('RolandCommunityBot/1.0 (listing check)')
  })

  test('stops reading a page larger than the limit', async () => {
    const error = await failure(safeFetch(site.url('/huge'), { allowPrivateNetwork: true, maxBytes: 256 * 1024 }))
    expect(error.code).toBe('too-large')
    expect(error.message).toContain('0.3 MB')
  })

  test('counts the size after decompression, so a gzip bomb is stopped', async () => {
    const error = await failure(safeFetch(site.url('/gzip-bomb'), { allowPrivateNetwork: true, maxBytes: 1024 * 1024 }))
    expect(error.code).toBe('too-large')
  })

  test('decompresses a gzipped page', async () => {
    const response = await safeFetch(site.url('/gzipped'), { allowPrivateNetwork: true })
    expect(decodeText(response)).toContain('Main Street Bakery')
  })

  test('gives up on a site that never answers', async () => {
    const error = await failure(safeFetch(site.url('/never-answers'), { allowPrivateNetwork: true, timeoutMs: 150 }))
    expect(error.code).toBe('timeout')
    expect(error.message).toContain('did not answer within 0.15 s')
  })

  test('reports a dead site as a refused connection', async () => {
    const port = await closedPort()
    const error = await failure(safeFetch(`http://127.0.0.1:${port}/`, { allowPrivateNetwork: true }))
    expect(error.code).toBe('connection-failed')
    expect(error.message).toContain('refused the connection')
  })

  test('sends one request at a time to the same host', async () => {
    mostInFlight = 0
    await Promise.all(Array.from({ length: 4 }, () => safeFetch(site.url('/counted'), { allowPrivateNetwork: true })))
    expect(mostInFlight).toBe(1)
  })

  test('decodes a page in the charset its meta tag declares', async () => {
    const response = await safeFetch(site.url('/old-windows-page'), { allowPrivateNetwork: true })
    expect(decodeText(response)).toContain('Café')
  })

  test('refuses an address that is not http or https', async () => {
    expect((await failure(safeFetch('ftp://example.com/'))).code).toBe('invalid-url')
    expect((await failure(safeFetch('not a url'))).code).toBe('invalid-url')
  })
})
