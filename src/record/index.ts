export { TaskRecord } from './schema.ts'
export { taskRecord, testCaseRun, type RecordFields, type Reported } from './build.ts'
export { agentStatusOf, runStatusOf, kindWithoutRecord, type Phase, type TestError } from './outcome.ts'
