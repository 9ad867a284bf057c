import { startModelServer, type ModelServer } from '../../fixtures/model-server/server.ts'
import { keywordJudge, type JudgeRule, type KeywordJudgeOptions } from '../../fixtures/model-server/judge-policy.ts'

/**
 * The rules of the scripted judge (a TEST DOUBLE) for the Omnizon tasks' rubrics: each passes
 * when the agent's evidence holds what the rubric asks for. Checks without a rule pass when
 * they have any evidence, so nop (no answer, no steps) still fails them.
 */
export const OMNIZON_JUDGE_RULES: JudgeRule[] = [
  // omnizon-3: every product with its price (first and last of the list, each on a line with a price).
  { expected: /Headphones category, each one with its price/i, require: [/Sony WH-1000XM5[^\n]*\$\d/i, /ErgoFit[^\n]*\$\d/i] },
  // omnizon-6: the S24 Ultra, cheaper, and its camera.
  { expected: /S24 Ultra is the better value/i, require: [/S24 Ultra/i, /camera/i, /less|cheaper|lower price/i] },
]

/** The key variable the scripted grader's runs read (any value works; it is never a real key). */
const KEY_ENV = 'AGENTEST_SCRIPTED_GRADER_KEY'

export interface ScriptedGrader {
  server: ModelServer
  /** AGENTEST_GRADER_* for a benchmark run graded by this server. */
  env: Record<string, string>
  close(): Promise<void>
}

/** Starts the scripted judge on loopback; `env` points a benchmark run's grader at it. */
export async function startScriptedGrader(options: Partial<KeywordJudgeOptions> = {}, model = 'scripted-judge'): Promise<ScriptedGrader> {
  const server = await startModelServer({ policy: keywordJudge({ rules: OMNIZON_JUDGE_RULES, ...options }) })
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
