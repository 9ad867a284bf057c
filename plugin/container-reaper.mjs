// Watches a benchmark run's main process and, once it is gone (finished, Ctrl-C, killed),
// removes every container (then network) labelled with the run and that process (another run
// may share the run id), sweeping a while longer for containers that workers were still creating. Plain
// JavaScript: it runs with `node` alone, detached.
//   node plugin/container-reaper.mjs <run-id> <main-pid>
import { loadDockerode } from '../src/docker/dockerode.cjs'

const [runId, mainPidText] = process.argv.slice(2)
const mainPid = Number(mainPidText)
const Docker = loadDockerode()
const docker = new Docker()
const SWEEP_FOR_MS = 20_000

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

async function sweep() {
  const containers = await docker.listContainers({ all: true, filters: { label: [`dev.agentest.run=${runId}`, `dev.agentest.pid=${mainPid}`] } })
  const doomed = containers.filter((c) => !c.Names.some((n) => n.startsWith('/agentest-kept-')))
  await Promise.all(doomed.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)))
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

while (alive(mainPid)) await sleep(300)
const until = Date.now() + SWEEP_FOR_MS
while (Date.now() < until) {
  await sweep().catch(() => undefined)
  await sleep(1_000)
}
// Then the run's network (src/docker/agent-network.ts); the next run's cleanup removes its
// firewall chain, which matches nothing once the network's bridge is gone.
const networks = await docker.listNetworks({ filters: { label: [`dev.agentest.run=${runId}`, `dev.agentest.pid=${mainPid}`] } }).catch(() => [])
await Promise.all(networks.map((n) => docker.getNetwork(n.Id).remove().catch(() => undefined)))
