import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { beforeAll, describe, expect, test } from 'vitest'
import { ROOT } from '../e2e/run-benchmark.ts'

/**
 * A newcomer's desktop tasks, written from docs/desktop.md alone (test/data/newcomer-desktop),
 * type-check against the helpers `agentest` exports: the compiler, as `tsc` would run it with
 * the project's settings. Vitest strips types without checking them, so a wrong guess at a
 * helper's signature would otherwise show only under tsc. Beside them, the same task with the
 * call the docs once implied (`expectCalculatorShows(expect, observed, shell, n)`) must not.
 */
const FOLDER = join(ROOT, 'test/data/newcomer-desktop')
const TASKS = readdirSync(FOLDER).filter((name) => name.endsWith('.task.ts')).map((name) => join(FOLDER, name))
const WRONG = join(FOLDER, 'wrong-call.task.ts')
const RIGHT_CALL = 'expectCalculatorShows({ expect, observed, shell }, SUM)'
const WRONG_CALL = 'expectCalculatorShows(expect, observed, shell, SUM)'

/** The compiler's errors in each of `files`, one line each, with a source in memory for `WRONG`. */
function diagnostics(files: string[], wrongText: string): Map<string, string[]> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT)
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (name) => name === WRONG || ts.sys.fileExists(name)
  host.readFile = (name) => (name === WRONG ? wrongText : ts.sys.readFile(name))
  host.getSourceFile = (name, language, onError) => (name === WRONG ? ts.createSourceFile(name, wrongText, language) : getSourceFile(name, language, onError))
  const program = ts.createProgram([...files, WRONG], options, host)
  const byFile = new Map<string, string[]>()
  for (const file of [...files, WRONG]) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${file}: not compiled`)
    byFile.set(
      file,
      [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => {
        const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1
        return `${file.slice(ROOT.length + 1)}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
      }),
    )
  }
  return byFile
}

describe('a newcomer\'s desktop tasks type-check against the documented helpers', { timeout: 180_000 }, () => {
  let found: Map<string, string[]>

  beforeAll(() => {
    const calculator = readFileSync(join(FOLDER, 'calculator-sum.task.ts'), 'utf8')
    expect(calculator).toContain(RIGHT_CALL)
    found = diagnostics(TASKS, calculator.replace(RIGHT_CALL, WRONG_CALL))
  }, 180_000)

  test('there are tasks to check, written against `agentest` only', () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(2)
    for (const task of TASKS) expect(readFileSync(task, 'utf8')).not.toMatch(/from '\.\.?\/|tasks\/desktop/)
  })

  test('each task compiles without an error', () => {
    for (const task of TASKS) expect(found.get(task), task).toEqual([])
  })

  test('a helper called with the wrong arguments is an error, on its line', () => {
    const errors = found.get(WRONG) ?? []
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/wrong-call\.task\.ts:\d+: Expected 2-3 arguments, but got 4\./)
  })
})
