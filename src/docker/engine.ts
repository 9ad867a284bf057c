import { createRequire } from 'node:module'
import type Docker from 'dockerode'

// Required on first use: a run without containers (every browser task's worker) never pays
// dockerode's import, about 0.1 CPU-seconds even without its ssh and gRPC parts (dockerode.cjs).
const load = createRequire(import.meta.url)

export type DockerStatus = { available: true } | { available: false; reason: string }

/** A client for the engine at DOCKER_HOST, or the local socket. */
export function dockerClient(): Docker {
  const { loadDockerode } = load('./dockerode.cjs') as { loadDockerode: () => typeof Docker }
  const Engine = loadDockerode()
  return new Engine()
}

/** Asks the engine whether it answers, within a few seconds. */
export async function dockerStatus(docker: Docker, timeoutMs = 5_000): Promise<DockerStatus> {
  const where = process.env.DOCKER_HOST ?? '/var/run/docker.sock'
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs).unref()),
    ])
    return { available: true }
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return { available: false, reason: `no Docker engine at ${where} (${why}); run \`npm run setup\` or set DOCKER_HOST` }
  }
}
