import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describeAction } from '../../computer/computer.ts'
import type { Step, TestCaseRun } from '../../schema/run.ts'

/** One step of a trajectory as a judge sees it; the screenshot is read only if it is sent. */
export interface EvidenceStep {
  index: number
  action: string
  thought: string
  url: string | null
  error: string | null
  screenshot: (() => Promise<Buffer>) | null
}

export interface CommandOutput {
  output: string
  exit_code: number
}

/**
 * What a judge may look at: the same evidence during a run (live) and in a stored run
 * (re-grading, calibration), so both grade alike.
 */
export interface Evidence {
  goal: string
  answer(): string | null
  /** The screen at the end of the run (PNG), or null when there is none. */
  finalScreenshot(): Promise<Buffer | null>
  steps(): EvidenceStep[]
  /** Live: runs the command in the task's container (and records it). Stored: its recorded output. */
  commandOutput(command: string): Promise<CommandOutput | null>
}

/** Reads screenshot paths relative to a run folder. */
function steps(trajectory: readonly Step[], read: (path: string) => Promise<Buffer>): EvidenceStep[] {
  return trajectory.map((step) => ({
    index: step.index,
    action: describeAction(step.action),
    thought: step.thought,
    url: step.url,
    error: step.error,
    screenshot: step.screenshot ? () => read(step.screenshot!) : null,
  }))
}

/** The evidence a live task offers; `finalScreenshot` is the one the record keeps as final.png. */
export function liveEvidence(source: {
  goal: string
  answer: () => string | null
  trajectory: () => readonly Step[]
  runDir: string
  finalScreenshot: () => Promise<Buffer | null>
  shell: (command: string) => Promise<{ stdout: string; exitCode: number }>
}): Evidence {
  return {
    goal: source.goal,
    answer: source.answer,
    finalScreenshot: source.finalScreenshot,
    steps: () => steps(source.trajectory(), (path) => readFile(join(source.runDir, path))),
    commandOutput: async (command) => {
      const result = await source.shell(command)
      return { output: result.stdout, exit_code: result.exitCode }
    },
  }
}

/** The evidence a stored TestCaseRun keeps: its answer, its folder's screenshots and its command outputs. */
export function storedEvidence(run: TestCaseRun, runDir: string): Evidence {
  const read = (path: string) => readFile(join(runDir, path))
  return {
    goal: run.task,
    answer: () => run.final_answer,
    finalScreenshot: async () => (run.result?.screenshot ? read(run.result.screenshot).catch(() => null) : null),
    steps: () => steps(run.trajectory, read),
    // The newest output of that exact command: the one a live judge saw when it ran it last.
    commandOutput: async (command) => run.command_output_check_results.findLast((c) => c.command === command) ?? null,
  }
}
