import { describe, expect, test } from 'vitest'
import { expectCalculatorShows, expectChangedOnlyBy, expectEditorSaved, expectNoShellCommand, expectWrittenBy } from '../../src/desktop-helpers/index.ts'
import { calculatorSaved, fakeDesktop, mousepadSaved, PRESENT, terminalWrote } from './fake-desktop.ts'

const NOTE = '/home/agent/note.txt'
const SETTINGS = /grep -E '\^\(mode\|remembered_valuex\)='/

/** The calculator's window, owned (by the X server's word) by the galculator the task started. */
const CALCULATOR_WINDOW = { id: 4194310, name: 'galculator', viewable: true, pid: PRESENT.galculator }

describe('desktop checks say what was expected, what was found, and where it came from', () => {
  test('expectWrittenBy: the app wrote it passes; a terminal\'s write is named, process and all', async () => {
    const right = fakeDesktop({ traces: mousepadSaved(NOTE) })
    await expectWrittenBy(right.context, NOTE, 'mousepad')
    expect(right.checks).toMatchObject([{ check: "mousepad wrote ~/note.txt (the observer's record)", passed: true }])

    const wrong = fakeDesktop({ traces: terminalWrote('note.txt') })
    await expectWrittenBy(wrong.context, NOTE, 'mousepad')
    expect(wrong.checks[0]).toMatchObject({ passed: false })
    expect(wrong.checks[0]!.message).toBe(
      "the content of ~/note.txt was written by /bin/bash (pid 181, started by the agent), expected mousepad, the app the task started (from the observer's record of what the agent's processes wrote)",
    )
  })

  test('expectWrittenBy follows a move, and an app of your own image is named by its program', async () => {
    const moved = fakeDesktop({ traces: mousepadSaved(NOTE) })
    await expectWrittenBy(moved.context, NOTE, '/usr/bin/leafpad', { now: NOTE })
    expect(moved.checks[0]!.message).toContain('written by /usr/bin/mousepad (pid 33), expected leafpad')
  })

  test('no observer: every check fails with its reason, never passes', async () => {
    const blind = fakeDesktop({ missing: 'the observer did not start: the image has no strace' })
    await expectWrittenBy(blind.context, NOTE, 'mousepad')
    await expectChangedOnlyBy(blind.context, ['pcmanfm'], 'the file was renamed')
    await expectNoShellCommand(blind.context)
    await expectCalculatorShows(blind.context, 17520)
    expect(blind.checks.map((c) => c.passed)).toEqual([false, false, false, false])
    for (const check of blind.checks) expect(check.message).toContain('no record of what the agent ran: the observer did not start: the image has no strace')
  })

  test('expectChangedOnlyBy names each change another program made', async () => {
    const { context, checks } = fakeDesktop({ traces: terminalWrote('report.txt') })
    await expectChangedOnlyBy(context, ['pcmanfm'], 'the file was renamed')
    expect(checks[0]).toMatchObject({ check: "the file was renamed with pcmanfm only (the observer's record)", passed: false })
    expect(checks[0]!.message).toBe(
      "files under ~ were changed by other programs than pcmanfm: write ~/report.txt by /bin/bash (pid 181, started by the agent) (from the observer's record of what the agent's processes changed), expected pcmanfm alone",
    )
  })

  test('expectChangedOnlyBy says a change made again and again (a loop left running) once', async () => {
    const traces = terminalWrote('report.txt')
    const write = traces[181]!.at(-1)!
    traces[181]!.push(write.replace(/^\d+/, (t) => String(Number(t) + 1)), write.replace(/^\d+/, (t) => String(Number(t) + 2)))
    const { context, checks } = fakeDesktop({ traces })
    await expectChangedOnlyBy(context, ['pcmanfm'], 'the file was renamed')
    expect(checks[0]!.message).toContain('pcmanfm: write ~/report.txt by /bin/bash (pid 181, started by the agent) (from')
  })

  test('expectNoShellCommand names the terminal and the shell the agent started, and passes without them', async () => {
    const { context, checks } = fakeDesktop({ traces: terminalWrote('x.txt') })
    await expectNoShellCommand(context, 'the sum was worked out')
    expect(checks[0]).toMatchObject({ check: "the sum was worked out without a shell or terminal (the observer's record)", passed: false })
    expect(checks[0]!.message).toBe(
      "the agent's processes started xterm (/usr/bin/xterm, pid 178, started from /usr/bin/openbox); bash (/bin/bash, pid 181, started from /usr/bin/xterm) (from the observer's record of the programs they ran), expected no shell or terminal",
    )
    const quiet = fakeDesktop({ traces: mousepadSaved(NOTE) })
    await expectNoShellCommand(quiet.context)
    expect(quiet.checks[0]?.passed).toBe(true)
  })

  test('expectEditorSaved: a window with unsaved changes is shown as the X server lists it', async () => {
    const editor = { id: 7, name: '*~/note.txt - Mousepad', viewable: true, pid: PRESENT.mousepad }
    const { context, checks } = fakeDesktop({ traces: mousepadSaved(NOTE), windows: [editor] })
    await expectEditorSaved(context, NOTE)
    expect(checks.map((c) => c.passed)).toEqual([true, false])
    expect(checks[1]!.message).toBe(
      'the windows of the editor the task started (the X server\'s list, by owner) are "*~/note.txt - Mousepad", expected one titled "~/note.txt - Mousepad" (the file open, with nothing unsaved)',
    )
  })

  test('expectEditorSaved: the "Externally Modified" question fails the third check', async () => {
    const editor = { id: 7, name: '~/note.txt - Mousepad', viewable: true, pid: PRESENT.mousepad }
    const { context, checks } = fakeDesktop({ traces: mousepadSaved(NOTE), windows: [editor], answer: (c) => (c.includes('Externally Modified') ? 'warning: Externally Modified\n' : '') })
    await expectEditorSaved(context, NOTE)
    expect(checks.map((c) => c.passed)).toEqual([true, true, false])
    expect(checks[2]!.message).toContain('raised its "Externally Modified" question, expected none')
  })
})

describe('expectCalculatorShows', () => {
  test('a wrong number: the display, where it was read from, and what was expected', async () => {
    const { context, checks, calls } = fakeDesktop({
      traces: calculatorSaved(),
      windows: [CALCULATOR_WINDOW],
      answer: (c) => (SETTINGS.test(c) ? 'mode=0\nremembered_valuex="42"\n' : ''),
    })
    await expectCalculatorShows(context, 7006652)
    expect(checks).toHaveLength(1)
    expect(checks[0]).toMatchObject({ check: 'the calculator was used: it shows 7006652 (or is in paper mode)', passed: false })
    expect(checks[0]!.message).toBe(
      "the calculator's display (read from galculator's settings, ~/.config/galculator/galculator.conf, saved as it was closed by the check) shows 42, expected 7006652 or paper mode",
    )
    // Its folder is made (as the agent, whose home it is) before the calculator is closed to save into it.
    expect(calls[0]).toEqual({ command: expect.stringContaining('mkdir -p /home/agent/.config/galculator'), as: 'agent' })
    expect(calls[1]!.command).toContain('ctrl+q')
  })

  test('the right number within the tolerance passes; so does paper mode', async () => {
    const right = fakeDesktop({ traces: calculatorSaved(), windows: [CALCULATOR_WINDOW], answer: (c) => (SETTINGS.test(c) ? 'remembered_valuex="531.847"\n' : '') })
    await expectCalculatorShows(right.context, 531.85, { tolerance: 0.01 })
    expect(right.checks[0]?.passed).toBe(true)
    const paper = fakeDesktop({ traces: calculatorSaved(), windows: [], answer: (c) => (SETTINGS.test(c) ? 'mode=2\n' : '') })
    await expectCalculatorShows(paper.context, 531.85)
    expect(paper.checks[0]?.passed).toBe(true)
  })

  test('closed with no settings folder: the reason says how to launch it', async () => {
    const { context, checks } = fakeDesktop({ windows: [], exitCode: (c) => (c.startsWith('test -d') ? 1 : 0) })
    await expectCalculatorShows(context, 17520)
    expect(checks[0]!.message).toBe(
      "the calculator's display could not be read: galculator was closed while ~/.config/galculator did not exist, so it saved nothing (launch it with launchApp('galculator') or launch('galculator', ...) in setup_cmd, which make that folder); expected it to show 17520",
    )
  })

  test('settings forged from a terminal are not read', async () => {
    const { context, checks } = fakeDesktop({ traces: terminalWrote('/home/agent/.config/galculator/galculator.conf'), windows: [] })
    await expectCalculatorShows(context, 17520)
    expect(checks[0]!.message).toContain('did not save its display (its settings were last written by /bin/bash (pid 181, started by the agent))')
  })

  test('settings written before the agent\'s turn are not read', async () => {
    const { context, checks } = fakeDesktop({ traces: calculatorSaved(-5), windows: [], answer: () => 'remembered_valuex="17520"\n' })
    await expectCalculatorShows(context, 17520)
    expect(checks[0]?.passed).toBe(false)
  })

  test('no calculator running when the turn began', async () => {
    const { context, checks } = fakeDesktop({ traces: {} })
    const observation = context.observed.observation
    context.observed.observation = async (paths) => {
      const seen = await observation(paths)
      for (const [pid, actor] of seen.present) if (actor.exe === '/usr/bin/galculator') (seen.present as Map<number, unknown>).delete(pid)
      return seen
    }
    await expectCalculatorShows(context, 17520)
    expect(checks[0]!.message).toBe("the calculator's display could not be read: galculator was not running when the agent's turn started; expected it to show 17520")
  })
})
