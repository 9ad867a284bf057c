import { agentTest, type SolutionContext } from 'agentest'
import { gnumericExportCsv, gnumericRepeatExport, launch, parseCsv, untilShell } from './support.ts'

const GRADES = `student,test1,test2,test3
Ana,78,85,92
Ben,64,70,58
Chloe,91,88,95
Dev,55,62,71
Eli,83,79,88
Farah,60,68,69
`
const ROWS = parseCsv(GRADES)
const STUDENTS = ROWS.slice(1).map(([name, ...scores]) => {
  const average = scores.reduce((sum, s) => sum + Number(s), 0) / scores.length
  return { name: name!, average, result: average >= 65 ? 'PASS' : 'FAIL' }
})
// Ben averages 64 and Dev 62.67 (FAIL); Farah averages exactly 65.67 (PASS).

/**
 * Fills E and F: E1 is reached with ctrl+Home, ctrl+Right (last column), Right. Tab moves right
 * and Enter goes back to column E of the next row. `passMark` is the threshold typed in.
 */
async function fillColumns({ computer }: SolutionContext, passMark = 65): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['ctrl', 'right'])
  await computer.keypress(['right'])
  await computer.type('Average\tResult\n')
  for (let row = 2; row <= ROWS.length; row++) {
    await computer.type(`=AVERAGE(B${row}:D${row})\t=IF(E${row}>=${passMark},"PASS","FAIL")\n`)
  }
}


const test = agentTest({
  id: 'desktop-spreadsheet-grades',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'silver',
  goal: 'The spreadsheet open on screen is ~/grades.csv. Add a column "Average" with each student\'s average of the three tests, and next to it a column "Result" that says PASS when the average is at least 65 and FAIL otherwise. Save the result as a new CSV file, ~/Documents/grades-final.csv, and leave ~/grades.csv as it was.',
  setup_cmd: [`cat > ~/grades.csv <<'EOF'\n${GRADES}EOF`, launch('gnumeric ~/grades.csv', 'Gnumeric$')].join('\n'),
  solution: async (context) => {
    await fillColumns(context)
    await gnumericExportCsv(context, '/home/agent/Documents/grades-final.csv')
  },
  near_misses: {
    'pass mark of 60': async (context) => {
      await fillColumns(context, 60)
      await gnumericExportCsv(context, '/home/agent/Documents/grades-final.csv')
    },
    // Ctrl+E repeats the export the sheet came from: it writes over ~/grades.csv.
    'original overwritten': async (context) => {
      await fillColumns(context)
      await gnumericRepeatExport(context)
      await untilShell(context.desktop, 'grep -q Average ~/grades.csv')
    },
  },
})

test('adds Average and Result columns in a new CSV', async ({ run, shell, expect }) => {
  await run()
  const original = await shell('cat /home/agent/grades.csv')
  expect(original.stdout, '~/grades.csv is unchanged').toBe(GRADES)
  const saved = await shell('cat /home/agent/Documents/grades-final.csv')
  expect(saved.exitCode, 'grades-final.csv exists in Documents').toBe(0)
  const rows = parseCsv(saved.stdout)
  expect(rows[0], 'the header gains Average and Result').toEqual([...ROWS[0]!, 'Average', 'Result'])
  expect(rows.slice(1).map((row) => row.slice(0, 4)), 'the students and scores are unchanged').toEqual(ROWS.slice(1))
  const averages = rows.slice(1).map((row) => Math.round(Number(row[4]) * 100) / 100)
  expect(averages, 'each average is right').toEqual(STUDENTS.map((s) => Math.round(s.average * 100) / 100))
  expect(rows.slice(1).map((row) => row[5]), 'each result is PASS or FAIL by the 65 mark').toEqual(STUDENTS.map((s) => s.result))
})
