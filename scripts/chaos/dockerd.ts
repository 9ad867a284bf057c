import { spawn } from 'node:child_process'
import { existsSync, openSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { dockerClient } from '../../src/docker/index.ts'

const PID_FILE = '/var/run/docker.pid'
const LOG = '/var/log/agentest-dockerd.log'

/**
 * Why this machine's Docker engine may not be stopped and started by the chaos suite, or null
 * when it may: a local dockerd run as root (as scripts/setup.sh starts it), not a remote engine
 * or one a service manager owns. Stopping it stops every container on the machine.
 */
export function engineNotOurs(): string | null {
  if (process.env.DOCKER_HOST) return 'DOCKER_HOST names another engine'
  if (process.getuid?.() !== 0) return 'needs root to stop and start dockerd'
  if (!existsSync(PID_FILE)) return `no ${PID_FILE}`
  if (existsSync('/run/systemd/system')) return 'systemd owns dockerd here'
  return null
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Stops dockerd as `systemctl stop` would (SIGTERM: it stops its containers, then exits), and waits until it has. */
export async function stopEngine(): Promise<void> {
  const pid = Number(readFileSync(PID_FILE, 'utf8').trim())
  process.kill(pid, 'SIGTERM')
  for (let waited = 0; alive(pid); waited += 200) {
    if (waited > 60_000) throw new Error(`dockerd (pid ${pid}) did not stop within 60 s`)
    await sleep(200)
  }
}

/** Starts dockerd again the way scripts/setup.sh does, and waits until it answers. */
export async function startEngine(): Promise<void> {
  const log = openSync(LOG, 'a')
  spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] }).unref()
  const docker = dockerClient()
  for (let waited = 0; !(await docker.ping().then(() => true, () => false)); waited += 500) {
    if (waited > 60_000) throw new Error(`dockerd did not answer within 60 s after starting again (log: ${LOG})`)
    await sleep(500)
  }
}
