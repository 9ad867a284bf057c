import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { keywordJudge, type JudgeRule } from '../../fixtures/model-server/openai/judge-policy.ts'
import { startModelServer } from '../../fixtures/model-server/server.ts'
import { ensureImage, imageDir } from '../../src/docker/index.ts'
import { MAPPED_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { ROOT, runBenchmark } from '../e2e/run-benchmark.ts'
import type { ScriptedGrader } from '../grader/scripted-grader.ts'

/**
 * OSUniverse's terminal/install_imagemagick, unchanged, on agentest's OSUniverse desktop: the
 * harness's own ImageMagick is off the agent's PATH and out of the checks', so a run that does
 * nothing shows a grader `convert -version` exiting 127 (not found) with no version, and the strict scripted grader (a TEST
 * DOUBLE for an LLM judge, deciding from the evidence) fails it; the same case after
 * `apk add imagemagick` (offline, from the image) shows the version and passes.
 */
const UPSTREAM = join(resolve(process.env.AGENTEST_UPSTREAM ?? resolve(import.meta.dirname, '../../../shared/upstream')), 'osuniverse/testcases')
const CASE = join(UPSTREAM, 'terminal/install_imagemagick.yaml')
const absent = !existsSync(CASE)
if (absent) console.log(`test/osuniverse/install.test.ts: skipped, no ${CASE} (set AGENTEST_UPSTREAM)`)

const KEY_ENV = 'AGENTEST_SCRIPTED_GRADER_KEY'
/** The rubric "This should be the version of ImageMagick that was installed": the output must be that version. */
const RULES: JudgeRule[] = [
  {
    expected: /version of ImageMagick that was installed/,
    facts: (r) => {
      const output = r.blocks.filter((b) => b.kind === 'output').map((b) => b.text).join('\n')
      return [{ question: 'Does the output give an ImageMagick version?', met: /^Version: ImageMagick \d+\.\d+/m.test(output) }]
    },
  },
]

describe.skipIf(noDocker || absent)('install cases start without the package and can install it offline', { timeout: 900_000 }, () => {
  let grader: ScriptedGrader
  beforeAll(async () => {
    // Built here, once (about 11 minutes on 2 cores the first time), so the run's time limit does not pay for it.
    await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})   // its FROM
    await ensureImage(docker, 'agentest-task/osuniverse-desktop', MAPPED_IMAGE_DIR, () => {})
    const server = await startModelServer({ policy: keywordJudge({ rules: RULES, otherwise: 'fail' }) })
    grader = {
      server,
      env: { AGENTEST_GRADER_MODEL: 'scripted-judge', AGENTEST_GRADER_BASE_URL: server.url, AGENTEST_GRADER_API_KEY_ENV: KEY_ENV, [KEY_ENV]: 'sk-scripted-grader' },
      close: () => server.close(),
    }
  }, 1_800_000)
  afterAll(() => grader?.close())

  test('nop fails install_imagemagick on the evidence; the case after an offline apk add passes the same grader', async () => {
    const cases = mkdtempSync(join(tmpdir(), 'agentest-osuniverse-install-'))
    mkdirSync(join(cases, 'terminal'))
    cpSync(CASE, join(cases, 'terminal/install_imagemagick.yaml'))
    // The same case with the install done at setup: what the grader sees after a right run. Its
    // task no longer asks for the install: asked for and done at setup, the case is skipped.
    const atSetup = readFileSync(CASE, 'utf8').replace(/^setup_cmd:.*$/m, 'setup_cmd: "sudo apk add imagemagick"')
    expect(atSetup).toContain('sudo apk add imagemagick')
    writeFileSync(join(cases, 'terminal/installed_at_setup.yaml'), atSetup)
    const installed = atSetup.replace(/^task:.*$/m, 'task: "Open Terminal."')
    expect(installed).toContain('task: "Open Terminal."')
    writeFileSync(join(cases, 'terminal/installed_imagemagick.yaml'), installed)

    const run = await runBenchmark(['tasks/osuniverse', '--maxWorkers=2'], { ...grader.env, AGENTEST_AGENT: 'nop', AGENTEST_OSUNIVERSE_CASES: cases })
    const byId = Object.fromEntries(run.results.map((r) => [r.id, r]))
    const nop = byId['osuniverse-terminal-install_imagemagick']!
    expect(nop, run.stderr + run.stdout.slice(-3000)).toBeDefined()
    expect(nop.status, nop.error?.message).toBe('failed')
    expect(nop.ai_score).toBe(0)
    // What the grader was shown: convert not found (exit 127), no version.
    expect(nop.command_output_check_results).toMatchObject([{ command: 'convert -version', exit_code: 127 }])
    expect(nop.command_output_check_results[0]!.output).not.toMatch(/ImageMagick/)

    expect(byId['osuniverse-terminal-installed_at_setup']).toMatchObject({
      status: 'skipped',
      error: { message: 'needs what its desktop (fixtures/images/osuniverse-desktop) lacks: a desktop without imagemagick (its task asks the agent to install it, and its setup_cmd already does)' },
    })
    const right = byId['osuniverse-terminal-installed_imagemagick']!
    expect(right.status, right.error?.message).toBe('passed')
    expect(right.command_output_check_results).toMatchObject([{ command: 'convert -version', exit_code: 0, output: expect.stringMatching(/^Version: ImageMagick 6\./) }])
  })
})
