import { describe, expect, test } from 'vitest'
import { SCENARIOS } from '../../scripts/chaos/scenarios.ts'
import { runScenario } from '../../scripts/chaos/run-scenario.ts'
import { noDocker } from '../docker/docker-available.ts'

/**
 * The fast form of `npm run chaos`: each fault injected into a small run, then the same command
 * again. Nothing lost (a record per task, or a count of it as not started; the summary adds up;
 * the fault's own outcome), nothing leaked (no container or network of the run), and the run
 * resumed with the tasks that passed reused and the faulted ones run afresh.
 */
describe('chaos: faults leave a complete record and nothing behind', { timeout: 900_000 }, () => {
  for (const scenario of SCENARIOS.filter((s) => s.fast)) {
    test.skipIf(scenario.needsDocker && noDocker)(scenario.fault, async () => {
      const row = await runScenario(scenario)
      expect(row.problems).toEqual([])
      expect(row).toMatchObject({ leaked: 0, resumed: true })
      expect(row.affected).toBeGreaterThanOrEqual(1)
    })
  }
})
