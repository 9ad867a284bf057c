import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { describe, expect, test } from 'vitest'
import { LABEL } from '../../src/docker/labels.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { runContainers } from '../docker/run-containers.ts'
import { ROOT, runBenchmark } from './run-benchmark.ts'

/**
 * A desktop task whose container writes past docker.disk_mb ends as `disk_limit`, on record and
 * in the summary, as `out_of_memory` does. The `hang` agent waits step after step; mid-task, the
 * agent's user fills its home with files each under the limit (as a script the agent started would).
 */
describe.skipIf(noDocker)('the disk limit in a benchmark run', { timeout: 300_000 }, () => {
  test('writing past docker.disk_mb ends the task as disk_limit', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentest-disk-')), 'agentest.config.yaml')
    const hang = join(ROOT, 'test/data/agents/hang.ts')
    writeFileSync(file, stringify({ agent: { name: 'hang' }, agents: { hang }, max_steps: 100, docker: { disk_mb: 64 } }))
    let filled = false
    const run = await runBenchmark(['tasks/desktop/terminal-hello.task.ts'], { AGENTEST_CONFIG: file, AGENTEST_AGENT: 'hang' }, async (dir, pid) => {
      const label = [`${LABEL.pid}=${pid}`, `${LABEL.task}=desktop-terminal-hello`]
      // Once the agent has taken a step: its container is the task's for good (a start retried on a busy machine is another).
      const acting = () => readdirSync(dir).some((run) => existsSync(join(dir, run, 'desktop-terminal-hello', 'steps.jsonl')))
      for (let tries = 0; tries < 600 && !filled; tries++) {
        const [found] = acting() ? await docker.listContainers({ filters: { label, status: ['running'] } }) : []
        if (found) {
          const exec = await docker.getContainer(found.Id).exec({ Cmd: ['bash', '-c', 'for i in 1 2 3 4; do head -c 20M /dev/zero > ~/fill-$i; done'], User: 'agent' })
          await exec.start({ Detach: true })
          filled = true
        } else {
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
    })
    expect(filled, run.stderr).toBe(true)
    const [record] = run.results
    expect(record?.error?.kind, JSON.stringify(record?.error)).toBe('disk_limit')
    expect(record?.error?.message).toMatch(/^container agentest-desktop-terminal-hello-[0-9a-f]{8} wrote \d+ MB, past its disk limit of 64 MB \(docker\.disk_mb\); it was stopped$/)
    expect(record?.status).not.toBe('passed')
    expect(run.summary?.totals.faults).toEqual({ disk_limit: 1 })
    expect(await runContainers(record?.run_id, run.pid)).toEqual([])
  })
})
