/**
 * agentest: benchmark tasks for computer-use and browser agents as Vitest tests.
 * Task files import from here; vitest.config.ts imports the plugin from 'agentest/plugin'.
 */
export { agentTest, type AgentTest, type TaskBody, type TaskContext } from './task/agent-test.ts'
export type { RunResult, WebApp } from './task/session.ts'
export type { Solution, SolutionContext, TaskSpecInput as TaskOptions } from './task/spec.ts'
export type { AgentestMeta, TaskRecord } from './task/meta.ts'
export type { Judge } from './grading/index.ts'
export { defineAgent, registerAgent, type Agent, type AgentContext, type AgentOutcome } from './agents/index.ts'
export type { Computer, Environment } from './computer/index.ts'
export { BrowserUi, OmnizonSteps, type Target, type NewCard, type Purchase } from './reference/index.ts'
export { OmnizonView } from './apps/omnizon.ts'
export * from './checks/index.ts'
export * from './schema/index.ts'
export * from './observer/index.ts'
