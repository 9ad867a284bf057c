import { home } from './shell-text.ts'
import { observe, toolWindows, type DesktopCheckContext } from './evidence.ts'
import { report } from './finding.ts'
import { expectWrittenBy } from './written-by.ts'

/**
 * Mousepad saved the file it has open, three recorded checks: its own process wrote `path`
 * (`expectWrittenBy`), one of its windows shows the file with no unsaved changes (titled
 * `~/note.txt - Mousepad`, by the X server's word on who owns it), and focusing that window
 * raises no "Externally Modified" question (Mousepad asks it when the file on disk changed behind
 * its back). Needs mousepad started on the file in `setup_cmd` (`launchApp('mousepad', path)`)
 * and still open: the goal should say "leaving it open in the editor".
 */
export async function expectEditorSaved(context: DesktopCheckContext, path: string): Promise<void> {
  const { expect, observed, shell } = context
  await expectWrittenBy(context, path, 'mousepad')
  const title = `${home(path)} - Mousepad`
  const observation = await observe(observed)
  const windows = typeof observation === 'string' ? observation : await toolWindows(observed, observation, 'mousepad')
  const shown = typeof windows === 'string' ? windows : windows.length ? windows.map((w) => JSON.stringify(w.name)).join(', ') : 'none'
  const window = typeof windows === 'string' ? undefined : windows.find((w) => w.name === title)
  report(expect, `the text editor the task opened still has ${home(path)} open, saved`, {
    pass: window !== undefined,
    message: `the windows of the editor the task started (the X server's list, by owner) are ${shown}, expected one titled "${title}" (the file open, with nothing unsaved)`,
    found: shown,
    expected: title,
  })
  if (!window) return
  const probe = await shell(
    [
      // Not --sync: the question takes the focus when it comes up, and --sync then waits ~15 s.
      // It comes within 0.05 s of the window's activation (measured with both cores busy), so
      // 1.5 s of the window in front without it is a wide margin.
      `w=${window.id}; xdotool windowactivate "$w" >/dev/null 2>&1; quiet=0`,
      'for i in $(seq 65); do',
      "  xdotool search --onlyvisible --name '^Externally Modified$' >/dev/null 2>&1 && { echo 'warning: Externally Modified'; break; }",
      '  [ "$(xdotool getactivewindow 2>/dev/null)" = "$w" ] && quiet=$((quiet + 1))',
      '  [ $quiet -ge 15 ] && break',
      '  sleep 0.1',
      'done',
      'exit 0',
    ].join('\n'),
  )
  const warned = probe.stdout.trim() !== ''
  report(expect, `the editor did not find ${home(path)} changed behind its back`, {
    pass: !warned,
    message: `focusing the editor's window raised its "Externally Modified" question, expected none: ${home(path)} changed on disk after the editor last saved it`,
    found: warned ? 'the "Externally Modified" question' : 'no question',
    expected: 'no question',
  })
}
