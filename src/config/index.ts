export { loadConfig, CONFIG_FILE, type LoadedConfig } from './load.ts'
export { InputError, describeZodError } from '../errors/input-error.ts'
export { makeRunId } from './run-id.ts'
