export { EnvironmentSpec, EnvironmentName, StateContract, OMNIZON_ENVIRONMENT, type EnvironmentStatus } from './spec.ts'
export { declaredEnvironments, startEnvironments, type RunningEnvironment } from './start.ts'
export { StateClient } from './state-client.ts'
