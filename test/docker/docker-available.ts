import { dockerClient, dockerStatus } from '../../src/docker/index.ts'

/**
 * Docker tests need an engine. CI always has one (its setup installs it), so there a missing
 * engine is a failure; on a laptop without Docker these tests are skipped.
 */
export const docker = dockerClient()
const status = await dockerStatus(docker)
export const noDocker = !status.available && !process.env.CI
