import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { docker, noDocker } from './docker-available.ts'

const RUN = `sealed-checks-${process.pid}`

/**
 * What an agent with a terminal can plant for the checks that run after it: a shell function,
 * an alias and a fake `cat` early on PATH, in every file a login or interactive bash reads.
 */
const PLANT = `
mkdir -p ~/bin ~/.local/bin
printf '#!/bin/sh\\necho hello\\n' > ~/bin/cat; chmod +x ~/bin/cat; cp ~/bin/cat ~/.local/bin/cat
for rc in ~/.profile ~/.bashrc ~/.bash_login ~/.bash_profile; do
  cat >> "$rc" <<'RC'
cat() { echo hello; }
export -f cat
alias cat='echo hello'
alias ls='echo hello.txt'
export PATH="$HOME/bin:$HOME/.local/bin:$PATH"
export BASH_ENV="$HOME/.bashrc"
RC
done
`

describe.skipIf(noDocker)('checks run out of the agent\'s reach', { timeout: 300_000 }, () => {
  let sandbox: DesktopSandbox

  beforeAll(async () => {
    const image = await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})
    sandbox = await DesktopSandbox.open({ docker, image, runId: RUN, taskId: 'sealed-checks', setupCmd: null, network: false })
    const planted = await sandbox.shell(PLANT, 10_000, 'agent')
    expect(planted.exitCode, planted.stderr.toString()).toBe(0)
  }, 300_000)

  afterAll(async () => {
    await removeRunContainers(docker, RUN)
  })

  test('the traps are live: a login shell as the agent is fooled by every one of them', async () => {
    const login = await sandbox.exec(['bash', '-lc', 'cat /home/agent/hello.txt; type cat | head -n 1'])
    expect(login.stdout.toString()).toMatch(/^hello\n/)
    const interactive = await sandbox.exec(['bash', '-ic', 'cat /home/agent/hello.txt'])
    expect(interactive.stdout.toString()).toMatch(/^hello/)
  })

  test('a check sees the real file system: no function, alias, PATH entry or rc file of the agent applies', async () => {
    const file = await sandbox.shell('cat /home/agent/hello.txt')
    expect(file.exitCode).not.toBe(0)
    expect(file.stdout.toString()).toBe('')
    expect(file.stderr.toString()).toContain('No such file or directory')
    const resolved = await sandbox.shell('type -a cat; type -a ls; echo "$PATH"; echo "$HOME"; id -un')
    expect(resolved.stdout.toString()).toBe(
      'cat is /usr/bin/cat\ncat is /bin/cat\nls is /usr/bin/ls\nls is /bin/ls\n/usr/sbin:/usr/bin:/sbin:/bin\n/root\nroot\n',
    )
  })

  test('a check inherits no environment: only the fixed variables are set', async () => {
    const env = await sandbox.shell('env | cut -d= -f1 | sort | tr "\\n" " "')
    expect(env.stdout.toString().trim()).toBe('DISPLAY HOME LANG LC_ALL PATH PWD PYTHONDONTWRITEBYTECODE PYTHONNOUSERSITE PYTHONSAFEPATH SHLVL TERM USER _')
  })

  test('a module the agent plants in its home, its folder or its user site is imported by no check, as root or as the agent', async () => {
    const plant = [
      'site=$(python3 -c "import site; print(site.getusersitepackages())")',
      'mkdir -p "$site" ~/work',
      'for where in ~ ~/work "$site"; do printf "print(\\"planted\\")\\n" > "$where/json.py"; done',
      'printf "print(\\"planted\\")\\n" > "$site/usercustomize.py"',
      // Unprotected (as the agent's own terminal runs it), python picks both up: the trap is live.
      'cd ~ && env -u PYTHONSAFEPATH -u PYTHONNOUSERSITE python3 -c "import json" 2>&1',
    ].join('\n')
    expect((await sandbox.shell(plant, 10_000, 'agent')).stdout.toString()).toBe('planted\nplanted\n')
    const probe = [
      'python3 -c "import json; print(json.__file__)"',
      'cd /home/agent && python3 -c "import json; print(json.__file__)"',
      "cd /home/agent/work && python3 - <<'EOF'\nimport json\nprint(json.__file__)\nEOF",
    ].join('\n')
    for (const as of ['root', 'agent'] as const) {
      const seen = await sandbox.shell(probe, 10_000, as)
      expect(seen.stdout.toString(), as).toBe('/usr/lib/python3.11/json/__init__.py\n'.repeat(3))
      expect((await sandbox.shell('pwd', 10_000, as)).stdout.toString(), `${as}: a check starts in /`).toBe('/\n')
    }
    await sandbox.shell('rm -rf ~/json.py ~/work ~/.local/lib', 10_000, 'agent')
  })

  test('running the agent\'s own work as the agent still reads none of its rc files', async () => {
    const file = await sandbox.shell('cat ~/hello.txt', 10_000, 'agent')
    expect(file.exitCode).not.toBe(0)
    expect(file.stdout.toString()).toBe('')
  })

  test('hiding a file from the checks fails them rather than passing them; root\'s files stay out of the agent\'s reach', async () => {
    await sandbox.shell('echo hello > ~/hello.txt; chmod 600 ~/hello.txt', 10_000, 'agent')
    // Root cannot read past a file's permissions here: a file the agent made unreadable is an error for the check.
    const hidden = await sandbox.shell('cat /home/agent/hello.txt')
    expect(hidden.exitCode).not.toBe(0)
    expect(hidden.stderr.toString()).toContain('Permission denied')
    const escalate = await sandbox.shell('touch /usr/bin/cat 2>/dev/null && echo changed || echo refused; cat /root/.bashrc >/dev/null 2>&1 && echo read || echo refused', 10_000, 'agent')
    expect(escalate.stdout.toString()).toBe('refused\nrefused\n')
    await sandbox.shell('rm -f ~/hello.txt', 10_000, 'agent')
  })

  test('the root channel the checks go through is out of the agent\'s reach: its pipes, its folder, its process', async () => {
    expect((await sandbox.shell('echo before')).stdout.toString()).toBe('before\n')
    // An agent that finds the channel's shell tries to answer in its place, to read what the
    // checks print, to plant their output in its folder, and to stop it.
    const tries = [
      'pids=$(pgrep -u root -f "^/bin/sh -c"); [ -n "$pids" ] && echo found',
      'for p in $pids; do for fd in 0 1 2; do (echo "1 0 3 0" > /proc/$p/fd/$fd) 2>/dev/null && echo "wrote $fd"; done; done',
      'for p in $pids; do ls /proc/$p/fd >/dev/null 2>&1 && echo listed; kill $p 2>/dev/null && echo killed; done',
      'for d in /tmp/tmp.*; do [ -d "$d" ] || continue; ls "$d" >/dev/null 2>&1 && echo "read $d"; touch "$d/out" 2>/dev/null && echo "planted $d"; done',
    ].join('\n')
    const tried = await sandbox.shell(tries, 10_000, 'agent')
    expect(tried.stdout.toString()).toBe('found\n')
    expect((await sandbox.shell('echo after; id -un')).stdout.toString()).toBe('after\nroot\n')
  })
})
