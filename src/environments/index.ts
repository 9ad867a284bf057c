export { EnvironmentSpec, EnvironmentName, StateContract, OMNIZON_ENVIRONMENT, type EnvironmentStatus } from '../schema/environment.ts'
export { declaredEnvironments, type RunningEnvironment } from './start.ts'
export { OnDemandEnvironments } from './on-demand.ts'
export { StateClient } from './state-client.ts'
