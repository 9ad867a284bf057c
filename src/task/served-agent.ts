import { actsThroughServedComputer, agentContainerSettings } from '../agent-images/container-settings.ts'
import { startServedAgent } from '../agent-images/served-container.ts'
import { redact, redactError } from '../secrets/redact.ts'
import { SandboxUnavailable, type SandboxServices, type TaskSandbox } from '../sandbox/kind.ts'

/**
 * A task's sandbox with the run's packaged agent beside it, when that agent acts through the
 * served Computer (spec.computer: served): its own container, started once the sandbox is up,
 * whatever the sandbox's kind. It goes with the sandbox. Any other run gets the sandbox as it is.
 */
export async function withServedAgent(sandbox: TaskSandbox, taskId: string, services: SandboxServices): Promise<TaskSandbox> {
  const { run } = services
  if (!run.agent_image || !actsThroughServedComputer(run.agent_image)) return sandbox
  try {
    const docker = await services.dockerProvision()
    if (!docker.available) throw new SandboxUnavailable(`the packaged agent ${run.agent_image.ref} runs in a Docker container: ${docker.reason}`)
    if (!docker.agentImage) throw new SandboxUnavailable(`the image of the packaged agent ${run.agent_image.ref} was not built`)
    await services.watchContainers()
    const agent = await startServedAgent({
      docker: services.docker(),
      image: docker.agentImage,
      runId: run.run_id,
      taskId,
      settings: agentContainerSettings(run.agent_image, run.config.agent_images.allow_secrets),
      redact: (text) => redact(text, services.secrets()),
    })
    return {
      ...sandbox,
      agentServer: agent.client,
      turnEnds: async (note) => {
        await agent.client.cancelOutcome().catch(() => null)
        await sandbox.turnEnds?.(note)
      },
      async close(failed) {
        // Still acting (a timeout, Ctrl-C): told to stop before its container goes.
        await agent.client.cancelActive()
        services.later(() => agent.close())
        await sandbox.close(failed)
      },
    }
  } catch (error) {
    await sandbox.close(false).catch(() => undefined)
    // The container's log lines quoted in the message may echo its secrets.
    throw redactError(error, services.secrets())
  }
}
