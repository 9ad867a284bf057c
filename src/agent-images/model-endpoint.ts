import type { ResolvedRun } from '../schema/config.ts'

/**
 * The warning a run of a packaged agent gets at its start when the agent is handed no model
 * endpoint: its run requests would say `model.base_url: null` (and `model.name: null` without a
 * model), and most agents then fail on their first model call, or call a default of their own
 * that nobody chose. Null when there is nothing to warn about.
 */
export function modelEndpointWarning(run: Pick<ResolvedRun, 'config' | 'agent_image'>): string | null {
  const { agent } = run.config
  if (!run.agent_image || agent.base_url) return null
  const unset = agent.model ? 'model.base_url: null' : 'model.base_url and model.name: null'
  const set = agent.model ? 'set agent.base_url in agentest.config.yaml (or AGENTEST_BASE_URL)' : 'set agent.base_url and agent.model in agentest.config.yaml (or AGENTEST_BASE_URL and AGENTEST_MODEL)'
  return `agentest: warning: the packaged agent ${run.agent_image.ref} has no model endpoint (its run requests say ${unset}): ${set}`
}
