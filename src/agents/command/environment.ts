import type { AgentContext } from '../agent.ts'
import type { ServedComputer } from '../../computer-service/server.ts'
import type { CommandOptions } from './options.ts'

/** Always passed: what a program needs to start at all, and nothing that names a secret. */
const BASICS = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'SYSTEMROOT']

/**
 * The program's whole environment: the task's goal and limits, where its Computer is served, the
 * model settings and key, and the variables the options pass on. Nothing else of the host's
 * environment (other keys, the grader's) reaches it.
 */
export function programEnvironment(context: AgentContext, served: ServedComputer, options: CommandOptions, host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const { task, config } = context
  const env: Record<string, string> = {}
  for (const name of [...BASICS, ...options.pass_env, config.api_key_env]) {
    const value = host[name]
    if (value !== undefined) env[name] = value
  }
  return {
    ...env,
    AGENTEST_TASK_ID: task.id,
    AGENTEST_GOAL: task.goal,
    AGENTEST_TASK: JSON.stringify(task),
    AGENTEST_ENVIRONMENT: task.environment,
    AGENTEST_SCREEN_WIDTH: String(task.screen.width),
    AGENTEST_SCREEN_HEIGHT: String(task.screen.height),
    AGENTEST_MAX_STEPS: String(task.max_steps),
    AGENTEST_TIMEOUT_MS: String(task.timeout_ms),
    AGENTEST_MCP_URL: served.mcpUrl,
    AGENTEST_API_URL: served.apiUrl,
    AGENTEST_TOKEN: served.token,
    // A browser of the task's own over CDP, when the agent asked for one (options.cdp).
    AGENTEST_CDP_URL: context.cdpUrl ?? '',
    AGENTEST_MODEL: config.model ?? '',
    AGENTEST_MODEL_BASE_URL: config.base_url ?? '',
    AGENTEST_API_KEY_ENV: config.api_key_env,
    AGENTEST_OPTIONS: JSON.stringify(options.settings),
    // Python buffers a pipe's output: unbuffered, the log keeps the order it was written in.
    PYTHONUNBUFFERED: '1',
  }
}
