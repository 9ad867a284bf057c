import { keywordJudge } from '../../fixtures/model-server/openai/judge-policy.ts'
import { startModelServer } from '../../fixtures/model-server/server.ts'
import type { ScriptedGrader } from '../grader/scripted-grader.ts'
import { TASK_FACT_RULES } from '../grader/task-facts.ts'
import { OSUNIVERSE_RULES, OSUNIVERSE_SCREEN_RULES, withScreenRules } from './judge-rules.ts'

const KEY_ENV = 'AGENTEST_SCRIPTED_GRADER_KEY'

/**
 * The scripted judge (a test double) with the OSUniverse cases' rules beside the tasks' own:
 * final screens decided by their pixels, the rest by their text. Any other check fails.
 */
export async function startOsuniverseGrader(): Promise<ScriptedGrader> {
  const text = keywordJudge({ rules: [...TASK_FACT_RULES, ...OSUNIVERSE_RULES], otherwise: 'fail' })
  const server = await startModelServer({ policy: withScreenRules(text, OSUNIVERSE_SCREEN_RULES) })
  return {
    server,
    env: { AGENTEST_GRADER_MODEL: 'scripted-judge', AGENTEST_GRADER_BASE_URL: server.url, AGENTEST_GRADER_API_KEY_ENV: KEY_ENV, [KEY_ENV]: 'sk-scripted-grader' },
    close: () => server.close(),
  }
}
