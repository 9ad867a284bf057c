/**
 * A program's stdout and stderr as lines for the task's log, with the last few kept for the
 * message when it fails. A line is written once it is complete (or when the stream ends).
 */
export class ProgramOutput {
  private readonly partial = { out: '', err: '' }
  private readonly last: string[] = []

  constructor(
    private readonly write: (text: string) => void,
    /** Takes out what must not be written down (the served token; the run's keys are scrubbed by the log too). */
    private readonly scrub: (text: string) => string,
    private readonly keep = 12,
  ) {}

  add(stream: 'out' | 'err', chunk: Buffer | string): void {
    const text = this.partial[stream] + chunk.toString()
    const lines = text.split('\n')
    this.partial[stream] = lines.pop() ?? ''
    for (const line of lines) this.line(stream, line)
  }

  /** Writes what is left of unfinished lines. */
  end(): void {
    for (const stream of ['out', 'err'] as const) {
      if (this.partial[stream]) this.line(stream, this.partial[stream])
      this.partial[stream] = ''
    }
  }

  /** The last lines the program wrote, for a failure's message. */
  tail(): string[] {
    return [...this.last]
  }

  private line(stream: 'out' | 'err', raw: string): void {
    const line = this.scrub(raw)
    this.write(`${stream}| ${line}\n`)
    this.last.push(line)
    if (this.last.length > this.keep) this.last.shift()
  }
}
