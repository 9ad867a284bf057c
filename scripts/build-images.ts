/**
 * Builds agentest's sandbox images (fixtures/images/*) unless their content-hash tag exists:
 * `npx tsx scripts/build-images.ts`. The plugin's global setup does the same before a run.
 */
import { dockerClient, dockerStatus, ensureImage, imageDir, SANDBOX_IMAGE_NAMES } from '../src/docker/index.ts'

async function main(): Promise<void> {
  const docker = dockerClient()
  const status = await dockerStatus(docker)
  if (!status.available) {
    console.error(`build-images: ${status.reason}`)
    process.exit(1)
  }
  for (const name of SANDBOX_IMAGE_NAMES) {
    const tag = await ensureImage(docker, name, imageDir(process.cwd(), name), (line) => console.log(`build-images: ${line}`))
    console.log(`build-images: ${name} is ${tag}`)
  }
}

main().catch((error: unknown) => {
  console.error(`build-images: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
