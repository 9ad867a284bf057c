/**
 * agentest: benchmark tasks for computer-use and browser agents as Vitest tests.
 * Task files import from here; vitest.config.ts imports the plugin from 'agentest/plugin'.
 */
export { agentTest, type AgentTest, type TaskBody, type TaskContext } from './task/agent-test.ts'
export type { RunResult, WebApp } from './task/session.ts'
export type { BaseTaskContext, CommandParts, SandboxKinds, TaskContextOf } from './task/agent-test.ts'
export { registerSandboxKind } from './sandbox/registry.ts'
export { registerAppKit, type AppKit, type AppView } from './sandbox/browser/app-kit.ts'
export type { SandboxKind, SandboxRequest, SandboxServices, TaskSandbox, SandboxFields } from './sandbox/kind.ts'
export type { BrowserParts } from './sandbox/browser/kind.ts'
export type { DesktopParts } from './sandbox/desktop/kind.ts'
export type { Solution, SolutionContext, TaskSpecInput as TaskOptions } from './task/spec.ts'
export type { AgentestMeta, TaskRecord } from './task/meta.ts'
export type { Judge } from './grading/index.ts'
export { defineAgent, registerAgent, type Agent, type AgentContext, type AgentOutcome } from './agents/index.ts'
export type { Computer, Environment } from './computer/index.ts'
export { BrowserUi, type Target } from './reference/index.ts'
// Omnizon, the bundled shop: its state, typed view, moves for solutions and purchase checks.
export { OmnizonView } from '../fixtures/apps/omnizon/view.ts'
export { OmnizonSteps, type NewCard, type Purchase } from '../fixtures/apps/omnizon/steps.ts'
export { expectNoPurchase, expectPurchase, type LineRule, type PurchaseRule, type TotalRule } from '../fixtures/apps/omnizon/checks.ts'
export * from '../fixtures/apps/omnizon/state.ts'
// Omnizon's kit: `shop` in solutions, `app.finish()` typed, its seeds and pop-up.
import '../fixtures/apps/omnizon/kit.ts'
export * from './checks/index.ts'
// Desktop tasks' helpers: setup, solution moves, the shortcut near miss, checks on the observer's record.
export * from './desktop-helpers/index.ts'
export * from './schema/index.ts'
export * from './observer/index.ts'
