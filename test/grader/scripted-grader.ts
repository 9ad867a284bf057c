import { startModelServer, type ModelServer } from '../../fixtures/model-server/server.ts'
import { keywordJudge, type KeywordJudgeOptions } from '../../fixtures/model-server/openai/judge-policy.ts'
import { TASK_FACT_RULES } from './task-facts.ts'

/** The key variable the scripted grader's runs read (any value works; it is never a real key). */
const KEY_ENV = 'AGENTEST_SCRIPTED_GRADER_KEY'

export interface ScriptedGrader {
  server: ModelServer
  /** AGENTEST_GRADER_* for a benchmark run graded by this server. */
  env: Record<string, string>
  close(): Promise<void>
}

/**
 * Starts the scripted judge on loopback; `env` points a benchmark run's grader at it. By default it
 * decides the tasks' judged checks from their facts (task-facts.ts) and fails any check it has no rule for.
 */
export async function startScriptedGrader(options: Partial<KeywordJudgeOptions> = {}, model = 'scripted-judge'): Promise<ScriptedGrader> {
  const server = await startModelServer({ policy: keywordJudge({ rules: TASK_FACT_RULES, otherwise: 'fail', ...options }) })
  return {
    server,
    env: {
      AGENTEST_GRADER_MODEL: model,
      AGENTEST_GRADER_BASE_URL: server.url,
      AGENTEST_GRADER_API_KEY_ENV: KEY_ENV,
      [KEY_ENV]: 'sk-scripted-grader',
    },
    close: () => server.close(),
  }
}
