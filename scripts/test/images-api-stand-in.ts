import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PNG } from 'pngjs'
import { handleGenerate, type GenerateSettings } from '../../supabase/functions/generate-business-image/handler.ts'

// Stand-ins for the image services we cannot reach from here, speaking their protocol on
// 127.0.0.1: an OpenAI-compatible images API (POST /v1/images/generations) and Supabase's
// Edge Functions endpoint (POST /functions/v1/generate-business-image), which runs the
// function's real handler, the way Supabase runs index.ts.

/** How the images API answers a generation request. */
export type ImagesApiAnswer = 'image' | 'url' | 'no-data' | 'server-error' | 'not-json'

/** One request a stand-in received. */
export interface RecordedImageRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: Record<string, unknown> | null
}

/** A running images API stand-in. */
export interface ImagesApiStandIn {
  /** The API base to configure, e.g. http://127.0.0.1:1234/v1. */
  apiUrl: string
  apiKey: string
  /** The PNG it hands out. */
  png: Uint8Array
  requests: RecordedImageRequest[]
  /** How it answers the next requests (default 'image'); answerFor overrides it per prompt. */
  answer: ImagesApiAnswer
  answerFor: ((prompt: string) => ImagesApiAnswer | undefined) | null
  close(): Promise<void>
}

/** Makes a small real PNG: a square of one colour. */
export function smallPng(size = 8, rgb: [number, number, number] = [200, 80, 40]): Uint8Array {
  const png = new PNG({ width: size, height: size })
  for (let i = 0; i < size * size; i++) png.data.set([...rgb, 255], i * 4)
  return new Uint8Array(PNG.sync.write(png))
}

/** Starts an OpenAI-compatible images API on a free port of 127.0.0.1. */
export async function startImagesApiStandIn(
  options: { apiKey?: string; png?: Uint8Array } = {},
): Promise<ImagesApiStandIn> {
  const apiKey = options.apiKey ?? 'sk-test-images-key'
  const png = options.png ?? smallPng()
  const requests: RecordedImageRequest[] = []
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const raw = await readBody(req)
    let body: Record<string, unknown> | null
    try {
      body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : null
    } catch {
      body = null
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body })
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(payload))
    }
    if (req.method === 'GET' && url.pathname === '/generated/image.png') {
      res.writeHead(200, { 'content-type': 'image/png' })
      return res.end(png)
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/images/generations') {
      return send(404, {
        error: { message: `Invalid URL (${req.method} ${url.pathname})`, type: 'invalid_request_error' },
      })
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(401, {
        error: {
          message:
            'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      })
    }
    const prompt = typeof body?.prompt === 'string' ? body.prompt : ''
    switch (standIn.answerFor?.(prompt) ?? standIn.answer) {
      case 'image':
        return send(200, { created: 1_790_000_000, data: [{ b64_json: Buffer.from(png).toString('base64') }] })
      case 'url':
        return send(200, { created: 1_790_000_000, data: [{ url: `http://127.0.0.1:${port()}/generated/image.png` }] })
      case 'no-data':
        return send(200, { created: 1_790_000_000, data: [] })
      case 'server-error':
        return send(500, {
          error: { message: 'The server had an error while processing your request.', type: 'server_error' },
        })
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/html' })
        return res.end('<html>gateway</html>')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = () => (server.address() as AddressInfo).port
  const standIn: ImagesApiStandIn = {
    apiUrl: `http://127.0.0.1:${port()}/v1`,
    apiKey,
    png,
    requests,
    answer: 'image',
    answerFor: null,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  return standIn
}

/** A running stand-in for Supabase's Edge Functions endpoint. */
export interface FunctionsStandIn {
  /** The project URL to configure as SUPABASE_URL. */
  url: string
  requests: RecordedImageRequest[]
  close(): Promise<void>
}

/** Starts a Supabase Functions stand-in that runs generate-business-image's handler with these secrets. */
export async function startFunctionsStandIn(options: {
  key: string
  secrets: GenerateSettings
  /** False answers as a project without the function deployed. */
  deployed?: boolean
}): Promise<FunctionsStandIn> {
  const requests: RecordedImageRequest[] = []
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const raw = await readBody(req)
    let body: Record<string, unknown> | null
    try {
      body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : null
    } catch {
      body = null
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body })
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(payload))
    }
    if (url.pathname !== '/functions/v1/generate-business-image' || options.deployed === false) {
      return send(404, { code: 'NOT_FOUND', message: 'Requested function was not found' })
    }
    // Supabase's gateway checks the key before the function runs: a legacy JWT key comes as a
    // bearer token, a new secret key as the apikey header (supabase-js sends it so).
    const presented = req.headers.apikey ?? req.headers.authorization?.replace(/^Bearer /, '')
    if (presented !== options.key) {
      return send(401, { code: 401, message: 'Invalid JWT' })
    }
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value)
    }
    const request = new Request(`http://127.0.0.1${url.pathname}`, {
      method: req.method ?? 'POST',
      headers,
      ...(raw.length && req.method !== 'GET' ? { body: new Uint8Array(raw) } : {}),
    })
    const response = await handleGenerate(request, { ...options.secrets, fetch })
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}
