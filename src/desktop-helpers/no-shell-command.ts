import { observe, type DesktopCheckContext } from './evidence.ts'
import { report } from './finding.ts'

/** Programs that run typed commands: shells, and the terminals that start them. */
const SHELLS = ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'tcsh', 'csh', 'busybox']
const TERMINALS = ['xterm', 'uxterm', 'x-terminal-emulator', 'lxterminal', 'xfce4-terminal', 'gnome-terminal', 'konsole', 'urxvt', 'rxvt', 'kitty', 'alacritty', 'terminator', 'tilix', 'sakura', 'st']

const nameOf = (exe: string) => exe.slice(exe.lastIndexOf('/') + 1)

/**
 * The agent ran no shell command: no shell or terminal program (bash, sh, xterm, ...) was started
 * during its turn, by anything of its (the desktop's terminal key, pcmanfm's F4, an app's
 * "run" box). Reads the observer's record of every program the agent's processes started, so a
 * terminal that was closed again, renamed, or ran with history off still counts. For tasks
 * whose goal rules out a terminal; `what` names the work for the check's name.
 */
export async function expectNoShellCommand({ expect, observed }: DesktopCheckContext, what = 'the task was done'): Promise<void> {
  const observation = await observe(observed)
  const started =
    typeof observation === 'string'
      ? [observation]
      : observation
          .programs()
          .filter((p) => p.at <= (observation.turnEnd ?? Infinity) && [...SHELLS, ...TERMINALS].includes(nameOf(p.exe)))
          // `parent` is the process before its exec: its pid is the program's, its exe what started it.
          .map((p) => `${p.argv.join(' ') || p.exe} (${p.exe}, pid ${p.parent.pid}, started from ${p.parent.exe ?? 'an unknown program'})`)
  const said = [...new Set(started)]
  report(expect, `${what} without a shell or terminal (the observer's record)`, {
    pass: started.length === 0,
    message: `the agent's processes started ${said.join('; ')} (from the observer's record of the programs they ran), expected no shell or terminal`,
    found: said.join('\n'),
    expected: 'no shell or terminal',
  })
}
