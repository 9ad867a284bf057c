export { Recorder, type Annotate } from './recorder.ts'
export {
  RecordingComputer,
  StepLimitError,
  TaskAbortedError,
  BlockedUrlError,
  SandboxGoneError,
  abortReason,
  type RecordingOptions,
} from './recording-computer.ts'
