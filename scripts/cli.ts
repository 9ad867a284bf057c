/** What the npm run scripts share: bad input is one line on stderr, prefixed by the script's name, and exit code 1. */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { InputError } from '../src/config/index.ts'

export interface Cli {
  fail(message: string): never
  /** The command line parsed with `options` (plus -h/--help); a parse error is one line with the usage. */
  parse<O extends NonNullable<ParseArgsConfig['options']>>(options: O): ReturnType<typeof parseArgs<{ allowPositionals: true; options: O & { help: { type: 'boolean'; short: 'h' } } }>>
  /** Runs `main`; an InputError ends the script with its one line. */
  run(main: () => unknown): Promise<void>
}

export function cli(script: string, usage: string): Cli {
  const fail = (message: string): never => {
    process.stderr.write(`${script}: ${message}\n`)
    process.exit(1)
  }
  return {
    fail,
    parse(options) {
      try {
        return parseArgs({ allowPositionals: true, options: { ...options, help: { type: 'boolean', short: 'h' } } })
      } catch (error) {
        return fail(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
      }
    },
    async run(main) {
      try {
        await main()
      } catch (error) {
        if (error instanceof InputError) fail(error.message)
        throw error
      }
    },
  }
}
