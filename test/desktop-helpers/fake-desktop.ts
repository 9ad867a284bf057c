import { expect, type ExpectStatic } from 'vitest'
import { recordingExpect } from '../../src/grading/index.ts'
import { EvidenceMissing, Observation, type ObservedWindow } from '../../src/observer/index.ts'
import type { ReadReply } from '../../src/observer/schema.ts'
import type { CheckResult } from '../../src/schema/run.ts'
import type { DesktopCheckContext } from '../../src/desktop-helpers/index.ts'

/** When the fake turn started and ended (seconds, as the observer's trace has them). */
export const TURN = { start: 1795886190, end: 1795886220 }

/** The processes there when the turn started: the desktop's and the apps setup_cmd launched. */
export const PRESENT = { openbox: 18, mousepad: 33, galculator: 40, pcmanfm: 50 }

/** An observer's reply with `traces` (strace lines by thread id, as the desktop image writes them). */
export function reply(traces: Record<number, string[]>, ctimes: Record<string, number | null> = {}): Extract<ReadReply, { ok: true }> {
  const proc = (pid: number, exe: string, tasks = [pid]) => ({ pid, ppid: 1, start: 100, uid: 1000, exe, cwd: '/home/agent', argv: [exe], tasks })
  return {
    ok: true,
    turn_start: TURN.start,
    turn_end: TURN.end,
    agent_uid: 1000,
    server: [],
    processes: [
      proc(PRESENT.openbox, '/usr/bin/openbox'),
      proc(PRESENT.mousepad, '/usr/bin/mousepad', [PRESENT.mousepad, 34]),
      proc(PRESENT.galculator, '/usr/bin/galculator'),
      proc(PRESENT.pcmanfm, '/usr/bin/pcmanfm'),
    ],
    tracer_running: true,
    tracer_log: '',
    traces,
    ctimes,
    now: TURN.end + 10,
  }
}

/** The agent opened a terminal (Ctrl+Alt+T: openbox starts xterm, xterm bash) and wrote `path` from it. */
export function terminalWrote(path: string): Record<number, string[]> {
  return {
    [PRESENT.openbox]: [`${TURN.start + 1}.459381 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fa30c052010) = 178`],
    178: [
      `${TURN.start + 1}.461401 execve("/usr/bin/xterm", ["xterm"], 0x7ffd7a7a75d8 /* 9 vars */) = 0`,
      `${TURN.start + 1}.549607 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f6d459e3910) = 181`,
    ],
    181: [
      `${TURN.start + 1}.554820 execve("/bin/bash", ["bash"], 0x563c775e5860 /* 16 vars */) = 0`,
      `${TURN.start + 5}.755138 openat(AT_FDCWD</home/agent>, "${path}", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3`,
    ],
  }
}

/** Mousepad (there from the start) saved `path` the GTK way, from a worker thread it started. */
export function mousepadSaved(path: string): Record<number, string[]> {
  return {
    [PRESENT.mousepad]: [
      `${TURN.start + 9}.000100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x7fff00, tls=0x7f} => {parent_tid=[190]}, 88) = 190`,
    ],
    190: [
      `${TURN.start + 9}.000200 openat(AT_FDCWD</>, "/home/agent/.goutputstream-Q1X2", O_RDWR|O_CREAT|O_EXCL, 0666) = 12`,
      `${TURN.start + 9}.000300 rename("/home/agent/.goutputstream-Q1X2", "${path}") = 0`,
    ],
  }
}

/** galculator (there from the start) wrote its settings as it quit, `at` seconds into the turn. */
export function calculatorSaved(at = 40): Record<number, string[]> {
  return {
    [PRESENT.galculator]: [`${TURN.start + at}.000100 openat(AT_FDCWD</home/agent>, "/home/agent/.config/galculator/galculator.conf", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 9`],
  }
}

/** A task's recording `expect` (the real one), with failures collected instead of failing the test that uses it. */
export function recordedChecks(): { expect: ExpectStatic; checks: CheckResult[] } {
  const checks: CheckResult[] = []
  const probe = new Proxy(expect, {
    get(target, prop, receiver) {
      if (prop === 'soft') return () => ({ toBeAgentestCheckPass: () => undefined })
      return Reflect.get(target, prop, receiver)
    },
  })
  return { expect: recordingExpect(probe, (check) => void checks.push(check)), checks }
}

/** A command the checks ran, and what the fake container answered. */
export interface ShellCall {
  command: string
  as: 'root' | 'agent'
}

/**
 * A desktop task's check context with the real recording `expect` (failures collected, not
 * thrown), an observer that answers with `traces` and `windows`, and a shell answered by `answer`.
 */
export function fakeDesktop({
  traces = {},
  windows = [],
  missing,
  answer = () => '',
  exitCode = () => 0,
}: {
  traces?: Record<number, string[]>
  windows?: ObservedWindow[]
  /** The observer's reason it has no record (it did not start). */
  missing?: string
  answer?: (command: string) => string
  exitCode?: (command: string) => number
}): { context: DesktopCheckContext; checks: CheckResult[]; calls: ShellCall[] } {
  const { expect, checks } = recordedChecks()
  const calls: ShellCall[] = []
  const context: DesktopCheckContext = {
    expect,
    observed: {
      observation: async () => {
        if (missing) throw new EvidenceMissing(missing)
        return Observation.from(reply(traces))
      },
      windows: async () => windows,
    },
    shell: async (command, options) => {
      const as = typeof options === 'object' ? (options.as ?? 'root') : 'root'
      calls.push({ command, as })
      return { stdout: answer(command), stderr: '', exitCode: exitCode(command) }
    },
  }
  return { context, checks, calls }
}
