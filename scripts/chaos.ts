/**
 * npm run chaos [-- --fast] [--only <words>] [--json <file>]: runs small suites while injecting each fault on
 * purpose, checks that nothing was lost or leaked and that the same command resumes the run,
 * and prints one row per fault. Exits 1 when any fault's checks failed.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { dockerClient } from '../src/docker/index.ts'
import { SCENARIOS } from './chaos/scenarios.ts'
import { runScenario, type ChaosRow } from './chaos/run-scenario.ts'
import { renderChaosTable } from './chaos/table.ts'

const { values } = parseArgs({ options: { fast: { type: 'boolean', default: false }, only: { type: 'string' }, json: { type: 'string' } } })
const docker = await dockerClient().ping().then(() => true, () => false)
const rows: ChaosRow[] = []
// --only picks the faults whose name contains the words (`--only daemon`).
const picked = SCENARIOS.filter((s) => (!values.fast || s.fast) && (!values.only || s.fault.toLowerCase().includes(values.only.toLowerCase())))
if (picked.length === 0) {
  console.error(`chaos: no fault matches${values.only ? ` "${values.only}"` : ''}; the faults: ${SCENARIOS.map((s) => s.fault).join(', ')}`)
  process.exit(1)
}
for (const scenario of picked) {
  if (scenario.needsDocker && !docker) {
    console.log(`chaos: ${scenario.fault}: skipped (no Docker engine)`)
    continue
  }
  const unavailable = scenario.unavailable?.()
  if (unavailable) {
    console.log(`chaos: ${scenario.fault}: skipped (${unavailable})`)
    continue
  }
  rows.push(await runScenario(scenario, (line) => console.log(line)))
}
for (const line of renderChaosTable(rows)) console.log(line)
if (values.json) writeFileSync(values.json, `${JSON.stringify(rows, null, 2)}\n`)
process.exit(rows.every((r) => r.problems.length === 0) ? 0 : 1)
