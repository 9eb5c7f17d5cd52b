import { StoreError } from '../store/types.ts'

// A password never comes from a command-line argument (it would sit in the shell history and in
// every process listing): it is piped in (--password-stdin) or typed at a prompt that does not echo.

/** Reads a password piped on stdin: everything up to the end, without the final line break. */
export async function readPasswordFromStdin(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
  if (!password) throw new StoreError('No password on stdin: pipe one in, e.g. `printf %s "$PASSWORD" | …`.')
  return password
}

/** Asks for a new password twice at the terminal, without echoing it. */
export async function promptNewPassword(): Promise<string> {
  const first = await promptHidden('New password: ')
  const second = await promptHidden('Repeat it: ')
  if (first !== second) throw new StoreError('The two passwords differ: run the command again.')
  return first
}

/** Asks one question at the terminal without echoing the answer. */
export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin
  if (!stdin.isTTY) {
    return Promise.reject(
      new StoreError('There is no terminal to ask for the password: pipe it in and add --password-stdin.'),
    )
  }
  process.stderr.write(question)
  return new Promise((resolve, reject) => {
    let value = ''
    const finish = (error?: Error) => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (data: string) => {
      for (const char of data) {
        if (char === '\r' || char === '\n') return finish()
        if (char === '\u0003') return finish(new StoreError('Cancelled.'))
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1)
        else value += char
      }
    }
    stdin.setRawMode(true)
    stdin.setEncoding('utf8')
    stdin.resume()
    stdin.on('data', onData)
  })
}
