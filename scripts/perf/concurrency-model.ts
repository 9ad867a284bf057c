/**
 * The "slow model" of the concurrency comparisons: the scripted model server (a TEST DOUBLE)
 * replaying a recorded oracle run, every reply held `delayMs` as a model's latency would be,
 * plus a scripted judge for the one Omnizon task with a judged check. It counts the calls of
 * each conversation (one conversation is one task attempt) and knows which are in flight.
 */
import { keywordJudge } from '../../fixtures/model-server/openai/judge-policy.ts'
import { replayPolicy, startModelServer, type ModelServer } from '../../fixtures/model-server/index.ts'
import type { TestCaseRun } from '../../src/schema/run.ts'

/** The key variable the runs read; any value works, the server is local and scripted. */
export const PERF_KEY_ENV = 'AGENTEST_PERF_SCRIPTED_KEY'
const PERF_KEY = 'sk-perf-scripted-not-a-key'

/**
 * One task's conversations. The server names a conversation after its goal, so attempts of one
 * task (repeats in flight together) share it: each starts with a turn-0 call and ends with an answer.
 */
export interface Conversation {
  calls: number
  attempts: number
  answers: number
}

export interface SlowModel {
  url: string
  delayMs: number
  apiKey: string
  conversations: Map<string, Conversation>
  /** Replies that were faults (a goal no recorded run matches). */
  faults: string[]
  /** Conversations that started and have not had their final answer yet. */
  inFlight(): number
  /** AGENTEST_* pointing openai-cua at the server and the grader at the scripted judge. */
  env: Record<string, string>
  close(): Promise<void>
}

export async function startSlowModel(recorded: readonly TestCaseRun[], delayMs: number): Promise<SlowModel> {
  const replay = replayPolicy(recorded, { delayMs })
  const conversations = new Map<string, Conversation>()
  const faults: string[] = []
  let started = 0
  let answered = 0
  let server: ModelServer | null = null
  server = await startModelServer({
    policy: (call) => {
      // The server keeps every request (every screenshot of every call); only the counts are needed.
      server?.requests.splice(0)
      const reply = replay(call)
      let entry = conversations.get(call.conversation)
      if (!entry) conversations.set(call.conversation, (entry = { calls: 0, attempts: 0, answers: 0 }))
      entry.calls++
      if (call.turn === 0) {
        entry.attempts++
        started++
      }
      if ('fault' in reply) faults.push(`${call.conversation} turn ${call.turn}: ${'message' in reply ? reply.message : reply.fault}`)
      if ('answer' in reply) {
        entry.answers++
        // In flight until the answer has gone out, after the delay.
        setTimeout(() => answered++, delayMs).unref()
      }
      return reply
    },
  })
  // Judged checks (omnizon-6) pass on any evidence: the end state is what the comparison verifies.
  const judge = await startModelServer({ policy: keywordJudge({ rules: [], otherwise: 'evidence' }) })
  return {
    url: server.url,
    delayMs,
    apiKey: PERF_KEY,
    conversations,
    faults,
    inFlight: () => started - answered,
    env: {
      AGENTEST_BASE_URL: server.url,
      AGENTEST_MODEL: 'computer-use-preview',
      AGENTEST_API_KEY_ENV: PERF_KEY_ENV,
      [PERF_KEY_ENV]: PERF_KEY,
      AGENTEST_GRADER_MODEL: 'scripted-judge',
      AGENTEST_GRADER_BASE_URL: judge.url,
      AGENTEST_GRADER_API_KEY_ENV: PERF_KEY_ENV,
    },
    close: async () => {
      await Promise.all([server?.close(), judge.close()])
    },
  }
}

/** Model seconds of each task attempt: its calls times the reply delay (attempts of one task replay the same calls). */
export function modelSeconds(model: SlowModel): number[] {
  return [...model.conversations.values()].flatMap((c) => {
    const attempts = Math.max(c.attempts, 1)
    return Array.from({ length: attempts }, () => (c.calls / attempts) * (model.delayMs / 1000))
  })
}
