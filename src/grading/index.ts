import './matchers.ts'
export { recordingExpect, type RecordCheck } from './recording-expect.ts'
