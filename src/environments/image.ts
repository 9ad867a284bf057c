import type Docker from 'dockerode'
import { containerLabels } from '../docker/labels.ts'
import { ensurePulled } from '../docker/task-images.ts'
import { waitReady } from './ready.ts'
import type { RunningEnvironment } from './start.ts'

/**
 * Runs an app's image for the run: labelled with the run (so cleanup by label finds it), its
 * port published on loopback only, removed when the run ends.
 */
export async function startImage(
  docker: Docker,
  name: string,
  image: string,
  options: { port: number; readyPath: string; timeoutMs: number; runId: string; log: (line: string) => void },
): Promise<RunningEnvironment> {
  const fail = (why: unknown): never => {
    throw new Error(`the ${name} environment (image ${image}) did not start: ${why instanceof Error ? why.message.split('\n')[0] : String(why)}`)
  }
  const tag = await ensurePulled(docker, image, options.log).catch(fail)
  const key = `${options.port}/tcp`
  const container = await docker
    .createContainer({
      Image: tag,
      name: `agentest-env-${name}-${options.runId}`.replaceAll(/[^a-zA-Z0-9_.-]/g, '-'),
      Labels: containerLabels(options.runId, `environment-${name}`),
      ExposedPorts: { [key]: {} },
      HostConfig: { PortBindings: { [key]: [{ HostIp: '127.0.0.1', HostPort: '' }] } },
    })
    .catch(fail)
  const close = async () => {
    await container.remove({ force: true }).catch(() => undefined)
  }
  try {
    await container.start()
    const published = (await container.inspect()).NetworkSettings.Ports[key]?.[0]?.HostPort
    if (!published) throw new Error(`port ${options.port} was not published`)
    const url = `http://127.0.0.1:${published}`
    let stopped: string | null = null
    const alive = () => stopped
    const poll = setInterval(() => {
      void container.inspect().then((info) => {
        if (!info.State.Running) stopped = `its container exited (code ${info.State.ExitCode})`
      }, () => undefined)
    }, 500)
    try {
      await waitReady(`${url}${options.readyPath}`, options.timeoutMs, alive)
    } finally {
      clearInterval(poll)
    }
    return { url, close }
  } catch (error) {
    await close()
    return fail(error)
  }
}
