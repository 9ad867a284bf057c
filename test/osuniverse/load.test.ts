import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { TaskSpec, toTestCase } from '../../src/task/spec.ts'
import { desktopImageRef } from '../../src/docker/task-images.ts'
import { LEVEL_MAX_STEPS, Level } from '../../src/schema/task.ts'
import { taskOptions } from '../../src/osuniverse/declare.ts'
import { caseImage, MAPPED_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { needsInternet } from '../../src/osuniverse/internet.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { expandPlaceholders } from '../../src/osuniverse/placeholders.ts'
import { SOLUTIONS } from '../../fixtures/osuniverse-cases/solutions.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const FIXTURES = join(ROOT, 'fixtures/osuniverse-cases')
const TASK_FILE = join(ROOT, 'tasks/osuniverse/osuniverse.task.ts')
const WEBTOP = 'us-docker.pkg.dev/agentsea-dev/agentd/desktop-webtop:8ed7f4e'

/** A folder of YAML files: `{ 'browser/a.yaml': '...' }`. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-osuniverse-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

function loadError(dir: string): string {
  try {
    loadCases(dir, { cwd: dir })
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the load to fail')
}

const CASE = `name: "Terminal - Echo"
level: "wood"
task: "Say hello"
setup_cmd: None
desktop_image: ${WEBTOP}
checks:
  - type: returned_result
    value: "hello"
`

describe('loading a folder of OSUniverse YAML', () => {
  test('the fixture cases: nine, in OSUniverse categories, every check type, the month placeholder, paper to bronze, one needing the internet', () => {
    const cases = loadCases(FIXTURES, { now: new Date(2026, 10, 26) })
    expect(cases.map((c) => c.key)).toEqual([
      'browser/exchange_rate',
      'browser/visitor_pass',
      'desktop/shopping_list',
      'gimp/open_poster',
      'libreoffice_calc/expense_total',
      'libreoffice_writer/fix_spelling',
      'libreoffice_writer/month_plan',
      'terminal/archive_notes',
      'terminal/count_guests',
    ])
    expect(cases.find((c) => c.key === 'libreoffice_calc/expense_total')).toMatchObject({ id: 'osuniverse-libreoffice_calc-expense_total', category: 'libreoffice_calc' })
    expect(new Set(cases.flatMap((c) => c.case.checks.map((check) => check.type)))).toEqual(new Set(['returned_result', 'final_screenshot', 'expected_flow', 'command_output']))
    expect(new Set(cases.map((c) => c.case.level))).toEqual(new Set(['paper', 'wood', 'bronze']))
    expect(cases.filter((c) => c.skip).map((c) => c.key)).toEqual(['browser/exchange_rate'])
    expect(cases.every((c) => c.image.kind === 'mapped' && c.image.dir === MAPPED_IMAGE_DIR)).toBe(true)
    const plan = cases.find((c) => c.key === 'libreoffice_writer/month_plan')!
    expect(plan.case.task).toContain("'Team plan for December'")
    expect(plan.case.checks[0]?.value).toContain("'Team plan for December'")
  })

  test('every runnable fixture case has a reference solution and at least one near miss; the skipped one needs none', () => {
    for (const loaded of loadCases(FIXTURES)) {
      const made = SOLUTIONS[loaded.key]?.(loaded.case)
      if (loaded.skip) expect(made, loaded.key).toBeUndefined()
      else expect(Object.keys(made?.near_misses ?? {}).length, loaded.key).toBeGreaterThan(0)
    }
  })

  test('a wrong type or a missing field is one line naming the file and the field; every problem of every file is listed', () => {
    const dir = folder({
      'terminal/bad.yaml': `name: 3\nlevel: plastic\ntask: "t"\ndesktop_image: ${WEBTOP}\nchecks:\n  - type: command_output\n    value: "v"\n  - type: screenshot\n    value: "v"\n`,
      'no-checks.yml': `name: "n"\nlevel: paper\ntask: "t"\ndesktop_image: ${WEBTOP}\nchecks: []\n`,
      'broken.yaml': 'name: [unclosed\n',
    })
    expect(loadError(dir).split('\n')).toEqual([
      'broken.yaml: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:',
      'no-checks.yml: checks: a case needs at least one check (without one it would pass whatever the agent did)',
      'terminal/bad.yaml: name: expected text, got a number (3)',
      'terminal/bad.yaml: level: got a string ("plastic"); OSUniverse\'s levels: paper, wood, bronze, silver, gold',
      'terminal/bad.yaml: checks[0].command: missing (expected a shell command)',
      'terminal/bad.yaml: checks[1].type: unknown check type "screenshot"; OSUniverse\'s types: returned_result, final_screenshot, expected_flow, command_output',
    ])
  })

  test('fields OSUniverse does not use are tolerated, in the case and in its checks; setup_cmd None is no setup', () => {
    const dir = folder({ 'terminal/echo.yaml': `${CASE}author: someone\nnotes: {reviewed: true}\n`.replace('value: "hello"', 'value: "hello"\n    weight: 2') })
    const [loaded] = loadCases(dir)
    expect(loaded?.case).toMatchObject({ name: 'Terminal - Echo', setup_cmd: 'None', author: 'someone' })
    expect(taskOptions(loaded!, TASK_FILE)).not.toHaveProperty('setup_cmd')
    expect(taskOptions(loaded!, TASK_FILE).checks).toEqual([{ type: 'returned_result', value: 'hello' }])
  })

  test('two files that become one task id are refused, naming both', () => {
    const dir = folder({ 'a/b-c.yaml': CASE, 'a-b/c.yaml': CASE })
    expect(loadError(dir)).toBe('a-b/c.yaml and a/b-c.yaml: both become the task "osuniverse-a-b-c"; rename one')
  })
})

describe('[%MONTH+k%]', () => {
  test('is the English name of the month k after the current one (local time), wrapping past December', () => {
    const november = new Date(2026, 10, 26, 12)
    expect(expandPlaceholders('[%MONTH+0%] [%MONTH+1%] [%MONTH+2%] [%MONTH+13%]', november)).toBe('November December January December')
    // Only "+k" is OSUniverse's; anything else is left as written.
    expect(expandPlaceholders('[%MONTH-1%] [%MONTH%] [%YEAR+1%]', november)).toBe('[%MONTH-1%] [%MONTH%] [%YEAR+1%]')
  })

  test('is expanded in the task and in every check rubric and command, not in the name or setup_cmd, at load', () => {
    const dir = folder({
      'browser/trip.yaml': [
        'name: "Trip [%MONTH+1%]"',
        'level: bronze',
        'task: "Plan a trip for [%MONTH+1%] 15th"',
        'setup_cmd: "echo [%MONTH+1%] > ~/month.txt"',
        `desktop_image: ${WEBTOP}`,
        'checks:',
        '  - {type: final_screenshot, value: "[%MONTH+1%] is shown"}',
        '  - {type: command_output, command: "grep -c [%MONTH+2%] ~/plan.txt", value: "[%MONTH+0%] is not"}',
      ].join('\n'),
    })
    const [loaded] = loadCases(dir, { now: new Date(2026, 11, 3) })
    expect(loaded?.case).toMatchObject({
      name: 'Trip [%MONTH+1%]',
      task: 'Plan a trip for January 15th',
      setup_cmd: 'echo [%MONTH+1%] > ~/month.txt',
      checks: [
        { type: 'final_screenshot', value: 'January is shown' },
        { type: 'command_output', command: 'grep -c February ~/plan.txt', value: 'December is not' },
      ],
    })
  })
})

describe('a case as an agentest task', () => {
  test("its level sets max_steps (OSUniverse's 5/25/50/75/100) and its score weight; category, name, goal and checks carry over", () => {
    for (const level of Level.options) {
      const dir = folder({ 'terminal/echo.yaml': CASE.replace('level: "wood"', `level: "${level}"`) })
      const [loaded] = loadCases(dir)
      const testCase = toTestCase(TaskSpec.parse(taskOptions(loaded!, TASK_FILE)), TASK_FILE, 'Terminal - Echo')
      expect(testCase).toMatchObject({ id: 'osuniverse-terminal-echo', level, max_steps: LEVEL_MAX_STEPS[level], category: 'terminal', name: 'Terminal - Echo', task: 'Say hello' })
    }
    expect(LEVEL_MAX_STEPS).toEqual({ paper: 5, wood: 25, bronze: 50, silver: 75, gold: 100 })
  })

  test("OSUniverse's desktop image, under any tag or digest, is agentest's OSUniverse desktop (a Dockerfile folder named from the task file)", () => {
    for (const image of [WEBTOP, 'us-docker.pkg.dev/agentsea-dev/agentd/desktop-webtop:latest', `us-docker.pkg.dev/agentsea-dev/agentd/desktop-webtop@sha256:${'a'.repeat(64)}`]) {
      expect(caseImage(image, join(FIXTURES, 'x.yaml')).kind, image).toBe('mapped')
    }
    const [loaded] = loadCases(folder({ 'terminal/echo.yaml': CASE }))
    const named = taskOptions(loaded!, TASK_FILE).desktop_image!
    expect(named).toBe('../../fixtures/images/osuniverse-desktop')
    expect(desktopImageRef(named, 'tasks/osuniverse/osuniverse.task.ts')).toMatchObject({ kind: 'folder', dir: MAPPED_IMAGE_DIR, name: 'agentest-task/osuniverse-desktop' })
  })

  test('another image is used as named; a relative path is a Dockerfile folder beside the YAML', () => {
    expect(caseImage('agentest/desktop', '/cases/t/a.yaml')).toEqual({ kind: 'as-named', image: 'agentest/desktop', has: null })
    expect(caseImage('ghcr.io/me/desk:1', '/cases/t/a.yaml')).toEqual({ kind: 'as-named', image: 'ghcr.io/me/desk:1', has: null })
    expect(caseImage('./images/mine', '/cases/t/a.yaml')).toEqual({ kind: 'as-named', image: '/cases/t/images/mine', has: null })
  })
})

describe('the internet rule', () => {
  const check = (value = 'ok') => [{ type: 'returned_result' as const, value }]
  const needs = (task: string, setup_cmd: string | null = null, checks: Parameters<typeof needsInternet>[0]['checks'] = check()) => needsInternet({ task, setup_cmd, checks })

  test('a public URL in the task, the setup or a check needs the internet, and the reason says where', () => {
    expect(needs('Go to https://duckduckgo.com/ and search for x.')).toBe('needs the open internet: its task names https://duckduckgo.com/')
    expect(needs('Open the file.', 'cd /config/Desktop && wget https://raw.githubusercontent.com/x/y/main/demo.ods')).toBe(
      'needs the open internet: its setup_cmd names https://raw.githubusercontent.com/x/y/main/demo.ods',
    )
    expect(needs('Check it.', null, [{ type: 'command_output', command: 'curl -s http://example.org/status', value: 'up' }])).toBe(
      'needs the open internet: the command of its check 1 names http://example.org/status',
    )
  })

  test('a download without a URL, a site named without a scheme, or a task that says it is online needs it too', () => {
    expect(needs('Make a venv.', 'pip install requests')).toBe('needs the open internet: its setup_cmd downloads (pip install)')
    expect(needs('Search airbnb.com for a flat in Lisbon.')).toBe('needs the open internet: its task names the site airbnb.com')
    expect(needs('Find the weather on www.bbc.co.uk today.')).toBe('needs the open internet: its task names the site www.bbc.co.uk')
    expect(needs('Search the web for a sausage recipe.')).toBe('needs the open internet: its task says "Search the web"')
  })

  test('local pages, files and installed apps do not: file://, localhost, apk add of the image\'s apps, file names', () => {
    expect(needs('Open file:///config/Desktop/page.html in Firefox.')).toBeNull()
    expect(needs('Open http://localhost:8080/ and http://127.0.0.1:3000/x.')).toBeNull()
    expect(needs('Open demo.ods.', 'sudo apk add libreoffice && cd /config/Desktop && setsid libreoffice --nologo demo.ods & sleep 2')).toBeNull()
    expect(needs('Rename notes.org to notes.txt.', 'touch ~/notes.org')).toBeNull()
  })
})
