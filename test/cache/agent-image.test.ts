import type Docker from 'dockerode'
import { describe, expect, test } from 'vitest'
import { packagedImageId } from '../../src/task/packaged-image-id.ts'
import type { DockerProvision } from '../../src/docker/images.ts'
import { Config, type ResolvedRun } from '../../src/schema/config.ts'

type Harness = Parameters<typeof packagedImageId>[0]

const run = (packaged: boolean): ResolvedRun => ({
  config: Config.parse({}),
  run_id: 'r',
  root: '/',
  results_path: '/r',
  config_file: null,
  agent_modules: {},
  agent_commands: {},
  // Only its presence matters here.
  agent_image: packaged ? ({ ref: 'mine:1.0.0' } as ResolvedRun['agent_image']) : null,
  attach_screenshots: false,
})

function harness(packaged: boolean, provision: DockerProvision, inspect: () => Promise<{ Id: string }>): Harness {
  const docker = { getImage: () => ({ inspect }) } as unknown as Docker
  return { run: run(packaged), dockerProvision: async () => provision, docker: () => docker }
}

const built: DockerProvision = { available: true, images: {}, agentImage: 'agentest-agent/mine:1.0.0-abc' }

describe("a packaged agent's image id", () => {
  test('is the built image id, not its tag', async () => {
    expect(await packagedImageId(harness(true, built, async () => ({ Id: 'sha256:123' })))).toBe('sha256:123')
  })

  test('is the tag when the engine cannot say, and null without a packaged agent or an engine', async () => {
    expect(await packagedImageId(harness(true, built, () => Promise.reject(new Error('gone'))))).toBe(built.agentImage)
    expect(await packagedImageId(harness(false, built, async () => ({ Id: 'sha256:123' })))).toBeNull()
    expect(await packagedImageId(harness(true, { available: false, reason: 'no engine' }, async () => ({ Id: 'x' })))).toBeNull()
  })
})
