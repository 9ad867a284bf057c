# The observer's side in a desktop container, run as root by the harness (python3 -I: nothing of
# the agent's is imported). Subcommands, each printing one JSON line:
#   start         notes every process (the baseline) and attaches strace to the agent's
#   end           the agent's turn is over: kills its processes, freezes the terminals' shells
#   read PATH...  the trace lines that change something, the baseline, and the paths' ctimes
#   windows       every window with a name, and the pid of the X client that owns it (XRes)
# Its files are in /run/agentest, which only root reads: the agent cannot see or forge them.
import glob, json, os, pwd, re, shutil, signal, subprocess, sys, time

DIR = '/run/agentest/observer'
SERVER_PID = '/run/agentest/agent-server.pid'
# What is traced: whatever starts a program, creates, writes, moves or removes a file, changes
# the working folder (to resolve relative paths), starts a process or thread (to know whose it
# is), and the calls that would act out of the trace's sight.
TRACED = ','.join([
    'execve', 'execveat', 'open', 'openat', 'openat2', 'creat', 'rename', 'renameat', 'renameat2',
    'unlink', 'unlinkat', 'rmdir', 'mkdir', 'mkdirat', 'link', 'linkat', 'symlink', 'symlinkat',
    'truncate', 'chmod', 'fchmodat', 'utimensat', 'utimes', 'utime', 'chdir', 'fchdir',
    'clone', 'clone3', 'fork', 'vfork', 'io_uring_setup', 'process_vm_writev', 'ptrace',
])
READ_ONLY = re.compile(r'^\S+ (open|openat|openat2)\(')
WRITES = re.compile(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC')


def out(value):
    print(json.dumps(value))


def process(pid):
    """A process as /proc tells it, or None once it is gone."""
    try:
        with open(f'/proc/{pid}/stat', 'rb') as f:
            stat = f.read().decode('utf-8', 'replace')
        fields = stat[stat.rindex(')') + 2:].split()
        with open(f'/proc/{pid}/status') as f:
            status = dict(line.rstrip('\n').split(':\t', 1) for line in f if ':\t' in line)
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            argv = [a.decode('utf-8', 'replace') for a in f.read().split(b'\0')[:-1]]
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return None

    def link(name):
        try:
            return os.readlink(f'/proc/{pid}/{name}')
        except OSError:
            return None

    try:
        tasks = sorted(int(t) for t in os.listdir(f'/proc/{pid}/task'))
    except OSError:
        tasks = [pid]
    return {
        'pid': pid,
        'ppid': int(fields[1]),
        'start': int(fields[19]),
        'uid': int(status['Uid'].split()[0]),
        'exe': link('exe'),
        'cwd': link('cwd'),
        'argv': argv,
        'tasks': tasks,
        'tracer': int(status.get('TracerPid', '0')),
    }


def processes():
    found = (process(int(p)) for p in os.listdir('/proc') if p.isdigit())
    return [p for p in found if p]


def agent_uid():
    return pwd.getpwnam('agent').pw_uid


def server_tree(procs):
    """The packaged agent's server and every process under it (it is the agent's, not the desktop's)."""
    try:
        with open(SERVER_PID) as f:
            root = int(f.read().strip())
    except (OSError, ValueError):
        return set()
    tree, grew = {root}, True
    while grew:
        grew = False
        for p in procs:
            if p['ppid'] in tree and p['pid'] not in tree:
                tree.add(p['pid'])
                grew = True
    return tree


def start():
    os.makedirs(DIR, mode=0o700)
    uid = agent_uid()
    procs = processes()
    now = time.time()
    server = server_tree(procs)
    with open(f'{DIR}/baseline.json', 'w') as f:
        json.dump({'time': now, 'agent_uid': uid, 'server': sorted(server), 'processes': procs}, f)
    strace = shutil.which('strace')
    if not strace:
        return out({'ok': False, 'reason': 'the image has no strace'})
    # Xvfb is the display, not the agent's: it starts nothing, and tracing it would slow every frame.
    targets = [p for p in procs if p['uid'] == uid and p['exe'] != '/usr/bin/Xvfb']
    args = [strace, '-ff', '-y', '-z', '-qq', '-ttt', '-s', '4096', '-e', 'signal=none', '-e', f'trace={TRACED}', '-o', f'{DIR}/t']
    for p in targets:
        args += ['-p', str(p['pid'])]
    log = open(f'{DIR}/strace.log', 'w')
    tracer = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    with open(f'{DIR}/strace.pid', 'w') as f:
        f.write(str(tracer.pid))
    # The agent's turn starts only once every thread of every target is traced.
    deadline = time.time() + 15
    while True:
        waiting = []
        for p in targets:
            for tid in p['tasks']:
                try:
                    with open(f'/proc/{p["pid"]}/task/{tid}/status') as f:
                        traced = any(line == f'TracerPid:\t{tracer.pid}\n' for line in f)
                except OSError:
                    traced = True  # gone: nothing to trace
                if not traced:
                    waiting.append(tid)
        if not waiting:
            return out({'ok': True, 'traced': len(targets), 'tracer': tracer.pid})
        if tracer.poll() is not None or time.time() > deadline:
            with open(f'{DIR}/strace.log') as f:
                said = f.read().strip().splitlines()[-1:] or ['']
            return out({'ok': False, 'reason': f'strace did not attach to {len(waiting)} threads: {said[0]}'})
        time.sleep(0.01)


def load_baseline():
    with open(f'{DIR}/baseline.json') as f:
        return json.load(f)


# Programs that run whatever they are told: shells, interpreters, terminals, and anything the
# agent could have written itself (outside the system's folders).
CONTROLLABLE = re.compile(r'^((ba|da|z|fi|k|mk|tc|c|r)?sh|busybox|python.*|perl.*|ruby.*|node(js)?|lua.*|php.*|tclsh.*|wish.*|[gmn]?awk|sed|env|xargs|find|nohup|setsid|timeout|script|expect)$')
TERMINALS = re.compile(r'^(x-terminal-emulator|u?xterm|lxterminal|xfce4-terminal|gnome-terminal.*|konsole|u?rxvt.*|st|terminator|tilix|kitty|alacritty|sakura|mate-terminal|qterminal|terminology)$')
SYSTEM = ('/usr/bin/', '/usr/sbin/', '/bin/', '/sbin/', '/usr/lib/', '/usr/libexec/', '/usr/local/bin/', '/usr/games/', '/opt/')


def controllable(p):
    exe = p['exe'] or ''
    name = os.path.basename(exe)
    return bool(CONTROLLABLE.match(name) or TERMINALS.match(name)) or not exe.startswith(SYSTEM)


def end():
    baseline = load_baseline()
    uid = baseline['agent_uid']
    known = {(p['pid'], p['start'], p['exe']) for p in baseline['processes']}
    server = set(baseline['server'])
    killed, frozen = {}, {}

    def doomed(procs):
        """The agent's: not there when its turn started (or another program since), the packaged
        agent's server, and what they started. A process an app the task started made for itself
        (a browser's content process, an image editor's plug-in) is the app's, unless a shell, a
        terminal or a program of the agent's stands between them."""
        by_pid = {p['pid']: p for p in procs}
        present = lambda p: (p['pid'], p['start'], p['exe']) in known and p['pid'] not in server

        def apps(p):
            q = p
            for _ in range(64):
                if controllable(q):
                    return False
                parent = by_pid.get(q['ppid'])
                if parent is None or parent['uid'] != uid or parent['pid'] in server:
                    return False
                if present(parent):
                    return not controllable(parent)
                q = parent
            return False

        return [p for p in procs if p['uid'] == uid and not present(p) and not apps(p)]

    # Until none is left: a process killed mid-fork may leave a child behind.
    for _ in range(10):
        targets = doomed(processes())
        if not targets:
            break
        for p in targets:
            # As first seen: killed but not yet reaped, a zombie shows no exe.
            killed.setdefault(p['pid'], p)
            try:
                os.kill(p['pid'], signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)
    # A terminal's shell that setup started runs whatever the agent typed into it, a loop in its
    # own process included: it is stopped, not killed, so its window stays as the agent left it.
    procs = processes()
    by_pid = {p['pid']: p for p in procs}
    for p in procs:
        parent = by_pid.get(p['ppid'])
        terminal = parent is not None and TERMINALS.match(os.path.basename(parent['exe'] or ''))
        if p['uid'] == uid and terminal and CONTROLLABLE.match(os.path.basename(p['exe'] or '')):
            frozen[p['pid']] = p
            try:
                os.kill(p['pid'], signal.SIGSTOP)
            except ProcessLookupError:
                pass
    at = time.time()
    with open(f'{DIR}/turn-end', 'w') as f:
        f.write(repr(at))
    brief = lambda p: {'pid': p['pid'], 'exe': p['exe'], 'argv': p['argv'][:8]}
    out({'ok': True, 'at': at, 'killed': [brief(p) for p in killed.values()], 'frozen': [brief(p) for p in frozen.values()]})


def read(paths):
    if not os.path.exists(f'{DIR}/baseline.json'):
        return out({'ok': False, 'reason': 'the observer was not started in this container'})
    baseline = load_baseline()
    try:
        with open(f'{DIR}/turn-end') as f:
            turn_end = float(f.read())
    except OSError:
        turn_end = None
    try:
        with open(f'{DIR}/strace.pid') as f:
            tracer = process(int(f.read()))
    except (OSError, ValueError):
        tracer = None
    traces = {}
    for name in glob.glob(f'{DIR}/t.*'):
        tid = name.rsplit('.', 1)[1]
        kept = []
        with open(name, encoding='utf-8', errors='replace') as f:
            for line in f:
                # Opening a file to read it changes nothing.
                if READ_ONLY.match(line) and not WRITES.search(line):
                    continue
                kept.append(line.rstrip('\n'))
        traces[tid] = kept
    ctimes = {}
    for path in paths:
        try:
            ctimes[path] = os.lstat(path).st_ctime_ns / 1e9
        except OSError:
            ctimes[path] = None
    with open(f'{DIR}/strace.log', errors='replace') as f:
        log = f.read()[-2000:]
    out({
        'ok': True,
        'turn_start': baseline['time'],
        'turn_end': turn_end,
        'agent_uid': baseline['agent_uid'],
        'server': baseline['server'],
        'processes': baseline['processes'],
        'tracer_running': bool(tracer and tracer['exe'] and tracer['exe'].endswith('strace')),
        'tracer_log': log,
        'traces': traces,
        'ctimes': ctimes,
        'now': time.time(),
    })


def windows():
    try:
        from Xlib import display, X
        from Xlib.ext import res
    except ImportError:
        return out({'ok': False, 'reason': 'the image has no python3-xlib'})
    d = display.Display()
    if not d.has_extension('X-Resource'):
        return out({'ok': False, 'reason': 'the X server has no X-Resource extension'})
    found = []

    def visit(window):
        try:
            name = window.get_full_text_property(d.intern_atom('_NET_WM_NAME')) or window.get_wm_name()
            attributes = window.get_attributes()
            children = window.query_tree().children
        except Exception:
            return
        if name:
            # The X server's own word on which client made the window (its socket's peer), not
            # _NET_WM_PID, which any client may set.
            ids = d.res_query_client_ids([{'client': window.id, 'mask': res.LocalClientPIDMask}])
            pids = [v for i in ids.ids for v in i.value]
            found.append({'id': window.id, 'name': str(name), 'viewable': attributes.map_state == X.IsViewable, 'pid': pids[0] if pids else None})
        for child in children:
            visit(child)

    visit(d.screen().root)
    out({'ok': True, 'windows': found})


if __name__ == '__main__':
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    if command == 'start':
        start()
    elif command == 'end':
        end()
    elif command == 'read':
        read(sys.argv[2:])
    elif command == 'windows':
        windows()
    else:
        out({'ok': False, 'reason': f'unknown command {command!r}'})
