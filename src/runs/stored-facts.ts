import { basename } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import type { Prices } from '../schema/config.ts'
import type { RunFolder } from './folder.ts'
import type { RunFacts } from './summarize.ts'

/**
 * The run facts of a stored folder: from its summary.json when there is one (the reporter knew
 * them first hand), else from the records themselves.
 */
export function storedRunFacts(folder: RunFolder, prices: Prices): RunFacts {
  const runs = folder.records.map((r) => r.run)
  const previous = folder.summary
  const times = (pick: (run: (typeof runs)[number]) => string) => runs.map(pick).sort()
  const now = new Date().toISOString()
  return {
    run_id: previous?.run_id ?? runs[0]?.run_id ?? basename(folder.dir),
    agent: previous?.agent ?? agentName(runs[0]?.agent_yaml) ?? 'unknown',
    agent_model: previous ? previous.agent_model : (runs[0]?.agent_model ?? null),
    started_at: previous?.started_at ?? times((r) => r.started_at)[0] ?? now,
    finished_at: previous?.finished_at ?? times((r) => r.finished_at).at(-1) ?? now,
    prices,
    cost: previous?.cost,
  }
}

const AgentYaml = z.object({ name: z.string().min(1) })

/** The agent's name from a record's `agent_yaml` (the agent config as YAML, or a bare name). */
function agentName(agentYaml: string | undefined): string | null {
  if (!agentYaml) return null
  try {
    const value: unknown = parseYaml(agentYaml)
    if (typeof value === 'string') return value
    const parsed = AgentYaml.safeParse(value)
    return parsed.success ? parsed.data.name : null
  } catch {
    return null
  }
}
