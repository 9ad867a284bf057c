import { describe, expect, test } from 'vitest'
import { Observation } from '../../src/observer/observation.ts'
import { parseLine, splitArgs } from '../../src/observer/trace.ts'
import type { ReadReply } from '../../src/observer/schema.ts'

/** Lines as strace 6.1 wrote them in the desktop image (`-ff -y -z -qq -ttt`): a terminal opened by openbox, `echo > x.txt; mv`. */
const TERMINAL = {
  18: ['1795886198.459381 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fa30c052010) = 178'],
  178: [
    '1795886198.461401 execve("/usr/bin/xterm", ["xterm"], 0x7ffd7a7a75d8 /* 9 vars */) = 0',
    '1795886198.549607 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f6d459e3910) = 181',
  ],
  181: [
    '1795886198.554820 execve("/bin/bash", ["bash"], 0x563c775e5860 /* 16 vars */) = 0',
    '1795886204.755138 openat(AT_FDCWD</home/agent>, "x.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
    '1795886204.757908 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f24a5a9da10) = 185',
  ],
  185: [
    '1795886204.761185 execve("/usr/bin/mv", ["mv", "x.txt", "y.txt"], 0x563596b9eea0 /* 19 vars */) = 0',
    '1795886204.770380 renameat2(AT_FDCWD</home/agent>, "x.txt", AT_FDCWD</home/agent>, "y.txt", RENAME_NOREPLACE) = 0',
  ],
  // Mousepad (there from the start) saving a file the GTK way, from a worker thread it starts.
  33: ['1795886210.000100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f, parent_tid=0x7f, exit_signal=0, stack=0x7f, stack_size=0x7fff00, tls=0x7f} => {parent_tid=[190]}, 88) = 190'],
  190: [
    '1795886210.000200 openat(AT_FDCWD</>, "/home/agent/.goutputstream-Q1X2", O_RDWR|O_CREAT|O_EXCL, 0666) = 12',
    '1795886210.000300 rename("/home/agent/.goutputstream-Q1X2", "/home/agent/note.txt") = 0',
  ],
}

function reply(traces: Record<number, string[]>, extra: Partial<Extract<ReadReply, { ok: true }>> = {}): Extract<ReadReply, { ok: true }> {
  const proc = (pid: number, exe: string, tasks = [pid]) => ({ pid, ppid: 1, start: 100, uid: 1000, exe, cwd: '/home/agent', argv: [exe], tasks })
  return {
    ok: true,
    turn_start: 1795886190,
    turn_end: 1795886220,
    agent_uid: 1000,
    server: [],
    processes: [proc(18, '/usr/bin/openbox'), proc(33, '/usr/bin/mousepad', [33, 34]), { ...proc(1, '/sbin/docker-init'), uid: 0 }],
    tracer_running: true,
    tracer_log: '',
    traces: Object.fromEntries(Object.entries(traces).map(([tid, lines]) => [tid, lines])),
    ctimes: {},
    now: 1795886230,
    ...extra,
  }
}

describe('the trace, read', () => {
  test('arguments split at top-level commas; strings decoded; fds carry their paths', () => {
    const args = splitArgs('AT_FDCWD</home/agent>, "a, \\"b\\"\\n", O_WRONLY|O_CREAT, [1, 2], {x=1, y=2}')
    expect(args.map((a) => a.raw)).toEqual(['AT_FDCWD</home/agent>', '"a, \\"b\\"\\n"', 'O_WRONLY|O_CREAT', '[1, 2]', '{x=1, y=2}'])
    expect(args[0]?.fdPath).toBe('/home/agent')
    expect(args[1]?.text).toBe('a, "b"\n')
    expect(splitArgs('"\\303\\251t\\303\\251"')[0]?.text).toBe('été')
  })

  test('a read-only open changes nothing; a cut-short path is a change to an unknown path, never dropped', () => {
    expect(parseLine(1, '1.5 openat(AT_FDCWD</>, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3', () => '/')).toEqual([{ kind: 'cwd', at: 1.5, tid: 1, path: '/' }])
    const cut = parseLine(1, '1.5 unlinkat(AT_FDCWD</home/agent>, "aaaa"..., 0) = 0', () => null)
    expect(cut).toContainEqual({ kind: 'change', at: 1.5, tid: 1, op: 'unlink', path: '?' })
  })

  test('who did what: the terminal and the move are the agent\'s, the save is the editor\'s, through its thread and the rename', () => {
    const seen = Observation.from(reply(TERMINAL))
    expect(seen.programs().map((p) => [p.exe, p.parent.exe])).toEqual([
      ['/usr/bin/xterm', '/usr/bin/openbox'],
      ['/bin/bash', '/usr/bin/xterm'],
      ['/usr/bin/mv', '/bin/bash'],
    ])
    const moved = seen.lastChange('/home/agent/y.txt')
    expect(moved).toMatchObject({ op: 'rename', from: '/home/agent/x.txt', by: { exe: '/usr/bin/mv', present: false } })
    // The bytes of y.txt were written by the shell (a redirection: no program of its own).
    expect(seen.contentWriter('/home/agent/y.txt')).toMatchObject({ op: 'write', path: '/home/agent/x.txt', by: { exe: '/bin/bash', pid: 181, present: false } })
    const saved = seen.contentWriter('/home/agent/note.txt')
    expect(saved).toMatchObject({ path: '/home/agent/.goutputstream-Q1X2', by: { exe: '/usr/bin/mousepad', pid: 33, present: true } })
  })

  test('a program started inside a present process makes it no longer that app', () => {
    const seen = Observation.from(
      reply({
        33: [
          '1795886200.1 execve("/usr/bin/python3", ["python3", "fake.py"], 0x1 /* 3 vars */) = 0',
          '1795886200.2 openat(AT_FDCWD</home/agent>, "note.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3',
        ],
      }),
    )
    expect(seen.contentWriter('/home/agent/note.txt')?.by).toMatchObject({ pid: 33, exe: '/usr/bin/python3', present: false })
  })

  test('a packaged agent\'s server was there first, but is the agent\'s', () => {
    const seen = Observation.from(reply({ 18: ['1795886200.2 openat(AT_FDCWD</home/agent>, "note.txt", O_WRONLY|O_CREAT, 0666) = 3'] }, { server: [18] }))
    expect(seen.contentWriter('/home/agent/note.txt')?.by.present).toBe(false)
  })

  test('a file changed after the trace last saw it was changed by a process it did not see', () => {
    const ctimes = { '/home/agent/note.txt': 1795886215, '/home/agent/y.txt': 1795886204.771 }
    const seen = Observation.from(reply(TERMINAL, { ctimes }))
    expect(seen.changedUnseen('/home/agent/note.txt')).toBe(true)
    expect(seen.changedUnseen('/home/agent/y.txt')).toBe(false)
    expect(seen.changedUnseen('/home/agent/other.txt')).toBe('unknown')
  })

  test('a tracer that stopped leaves a gap that checks fail on', () => {
    expect(Observation.from(reply({}, { tracer_running: false, tracer_log: 'strace: exit\n' })).gap).toBe("the observer's trace stopped (strace: exit)")
  })
})
