import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import type Docker from 'dockerode'
import { z } from 'zod'
import { LABEL, networkLabels } from './labels.ts'

/**
 * A run's own network, for the desktop containers that need one (a packaged agent's, a task's
 * with `network: true`). On it:
 * - containers cannot reach each other: Docker's `enable_icc=false` drops bridge-to-bridge
 *   forwarding, so an agent cannot read or cancel another task's agent server;
 * - the host is reachable at the relays' ports only (src/agent-images/loopback-relay.ts). Docker
 *   cannot firewall a bridge's traffic to the host itself (that is the INPUT chain; DOCKER-USER
 *   sees forwarded traffic only), so a chain of ours, jumped to from INPUT for the bridge's
 *   interface, lets in replies to the host's own connections and the relays' ports on the gateway
 *   and refuses the rest, whichever host address is asked (the gateway, docker0, the LAN's);
 * - the internet is reachable (forwarded and masqueraded, as Docker does), as a model API needs.
 * The firewall needs iptables on the engine's machine as root: without it (a remote engine, no
 * root) the network is still made and isolated, and `unfirewalled` says why the host is not.
 */
export interface RunNetwork {
  id: string
  name: string
  /** The host's address on the network: where host.docker.internal points and relays listen. */
  gateway: string
  /** Why the host's ports are not firewalled from this network, or null when they are. */
  unfirewalled: string | null
}

const ICC = 'com.docker.network.bridge.enable_icc'
const NetworkInfo = z.object({
  Id: z.string(),
  Name: z.string(),
  Created: z.string().optional(),
  Labels: z.record(z.string(), z.string()).nullish(),
  IPAM: z.object({ Config: z.array(z.object({ Gateway: z.string().optional() })).nullish() }).nullish(),
})
type NetworkInfo = z.infer<typeof NetworkInfo>

/** The chain's rules after the relays' ACCEPTs (inserted first): replies, then a refusal. */
const CHAIN_RULES = [
  ['-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'ACCEPT'],
  // A refused connection fails at once rather than hanging the agent until its timeout.
  ['-p', 'tcp', '-j', 'REJECT', '--reject-with', 'tcp-reset'],
  ['-j', 'DROP'],
]

/** One network per run and process (a worker's tasks share it). */
const networks = new Map<string, Promise<RunNetwork>>()
/** Firewalled gateways to their chain, for the relays (in this process). */
const firewalls = new Map<string, string>()
const allowed = new Set<string>()

export function runNetwork(docker: Docker, runId: string): Promise<RunNetwork> {
  let network = networks.get(runId)
  if (!network) {
    network = openRunNetwork(docker, runId)
    networks.set(runId, network)
    network.catch(() => networks.delete(runId))
  }
  return network
}

async function openRunNetwork(docker: Docker, runId: string): Promise<RunNetwork> {
  const labels = networkLabels(runId)
  const name = `agentest-${runId}-${labels[LABEL.pid]}`.replaceAll(/[^a-zA-Z0-9_.-]/g, '-')
  const options = { Name: name, Driver: 'bridge', CheckDuplicate: true, Labels: labels, Options: { [ICC]: 'false' } }
  const made = await docker.createNetwork(options).catch((error: unknown) => {
    // Another worker of the run made it first: use that one.
    if ((error as { statusCode?: number }).statusCode === 409) return null
    throw error
  })
  const info = made ? NetworkInfo.parse(await made.inspect()) : await existing(docker, name)
  const gateway = info.IPAM?.Config?.find((config) => config.Gateway)?.Gateway
  if (!gateway) throw new Error(`the Docker network ${name} has no gateway`)
  const unfirewalled = await firewall(info.Id, gateway)
  if (unfirewalled) process.stderr.write(`agentest: the host's ports are open to containers on ${name}: ${unfirewalled}\n`)
  return { id: info.Id, name: info.Name, gateway, unfirewalled }
}

/** The earliest-made network of that name: every worker settles on the same one after a race. */
async function existing(docker: Docker, name: string): Promise<NetworkInfo> {
  const found = z.array(NetworkInfo).parse(await docker.listNetworks({ filters: { name: [name] } }))
  const first = found.filter((n) => n.Name === name).sort((a, b) => (a.Created ?? '').localeCompare(b.Created ?? ''))[0]
  if (!first) throw new Error(`the Docker network ${name} was made and is gone`)
  return NetworkInfo.parse(await docker.getNetwork(first.Id).inspect())
}

const bridgeOf = (id: string) => `br-${id.slice(0, 12)}`
const chainOf = (id: string) => `AGENTEST-${id.slice(0, 12)}`

/**
 * Installs the network's chain (idempotent: each worker makes sure of it before its first
 * container, as another may still be making it). Returns why it could not, or null.
 */
async function firewall(id: string, gateway: string): Promise<string | null> {
  const bridge = bridgeOf(id)
  const chain = chainOf(id)
  // The bridge is an interface of this machine only when the engine runs here (not remote, not in a VM).
  if (!existsSync(`/sys/class/net/${bridge}`)) return `its bridge ${bridge} is not on this machine (a remote engine, or one in a VM)`
  const made = await iptables('-N', chain)
  if (!made.ok && !/exists/i.test(made.error)) return `iptables -N ${chain} failed (${made.error})`
  for (const rule of CHAIN_RULES) {
    if (!made.ok && (await iptables('-C', chain, ...rule)).ok) continue
    const added = await iptables('-A', chain, ...rule)
    if (!added.ok) return `iptables -A ${chain} failed (${added.error})`
  }
  const jump = ['-i', bridge, '-j', chain]
  if (made.ok || !(await iptables('-C', 'INPUT', ...jump)).ok) {
    const added = await iptables('-I', 'INPUT', '1', ...jump)
    if (!added.ok) return `iptables -I INPUT failed (${added.error})`
  }
  firewalls.set(gateway, chain)
  return null
}

/**
 * Lets the run network whose gateway this is reach `port` there (a relay's). Nothing for a
 * gateway that is not a firewalled run network's. Throws when the rule cannot be added: the
 * agent would find its model unreachable.
 */
export async function allowHostPort(gateway: string, port: number): Promise<void> {
  const chain = firewalls.get(gateway)
  if (!chain || allowed.has(`${chain}:${port}`)) return
  const added = await iptables('-I', chain, '1', '-d', gateway, '-p', 'tcp', '--dport', String(port), '-j', 'ACCEPT')
  if (!added.ok) throw new Error(`could not open ${gateway}:${port} to the run's containers: ${added.error}`)
  allowed.add(`${chain}:${port}`)
}

/**
 * Removes the networks with these labels that `select` picks, then the firewall chains whose
 * bridge is gone. A network a container still uses (one kept for debugging) stays, with its
 * chain. Returns the removed networks' names.
 */
export async function removeNetworksWhere(docker: Docker, label: string[], select: (labels: Record<string, string>) => boolean): Promise<string[]> {
  const found = z.array(NetworkInfo).parse(await docker.listNetworks({ filters: { label } }))
  const doomed = found.filter((n) => select(n.Labels ?? {}))
  const removed = await Promise.all(doomed.map((n) => docker.getNetwork(n.Id).remove().then(() => n, () => null)))
  const gone = new Set(removed.flatMap((n) => (n ? [n.Id] : [])))
  for (const [runId, network] of networks) {
    if (gone.has((await network.catch(() => null))?.id ?? '')) networks.delete(runId)
  }
  if (gone.size) await sweepFirewall()
  return removed.flatMap((n) => (n ? [n.Name] : []))
}

/**
 * Removes our chains whose bridge is gone (its network removed by us, by a reaper, or by hand).
 * A chain whose bridge is gone matches no packet; this only tidies.
 */
export async function sweepFirewall(): Promise<void> {
  const listed = await iptables('-S')
  if (!listed.ok) return
  const lines = listed.stdout.split('\n')
  for (const [, chain, id] of listed.stdout.matchAll(/^-N (AGENTEST-([0-9a-f]{12}))$/gm)) {
    if (existsSync(`/sys/class/net/br-${id}`)) continue
    for (const jump of lines.filter((line) => line.startsWith('-A INPUT ') && line.endsWith(` -j ${chain}`))) {
      await iptables('-D', ...jump.slice(3).split(' '))
    }
    await iptables('-F', chain!)
    await iptables('-X', chain!)
  }
}

/** The same iptables as dockerd's (its front end decides the backend: nf_tables or legacy). */
const IPTABLES = ['/usr/sbin/iptables', '/sbin/iptables'].find((path) => existsSync(path)) ?? 'iptables'

function iptables(...args: string[]): Promise<{ ok: boolean; stdout: string; error: string }> {
  return new Promise((resolve) => {
    // -w: wait for the xtables lock that dockerd and other workers take.
    execFile(IPTABLES, ['-w', '5', ...args], { timeout: 15_000 }, (error, stdout, stderr) => {
      const why = (stderr || (error?.message ?? '')).trim().split('\n')[0] ?? ''
      resolve({ ok: !error, stdout, error: why })
    })
  })
}
