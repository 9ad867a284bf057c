import type { WorkerHarness } from './worker.ts'

/**
 * The id of the packaged agent's image as built or pulled for this run, or null (no packaged
 * agent, or no engine to ask). The id, not the tag: `image: my-agent:dev` can be rebuilt under
 * the same tag with other code.
 */
export async function packagedImageId(harness: Pick<WorkerHarness, 'run' | 'dockerProvision' | 'docker'>): Promise<string | null> {
  if (!harness.run.agent_image) return null
  const provision = await harness.dockerProvision()
  if (!provision.available || !provision.agentImage) return null
  try {
    return (await harness.docker().getImage(provision.agentImage).inspect()).Id
  } catch {
    // The task fails to start with this image anyway; the tag is the best name for it meanwhile.
    return provision.agentImage
  }
}
