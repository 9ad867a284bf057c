// The options are a boundary schema (the config's `agents:` entries use it too), so they live in schema.
export { CommandOptions } from '../../schema/command-agent.ts'
