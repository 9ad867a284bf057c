import { agentTest, expectWrittenBy, gnumericExportCsv, gnumericRepeatExport, inTerminal, launchApp, parseCsv, untilShell, type SolutionContext } from 'agentest'

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
// Ben averages 64 and Dev 62.67 (FAIL); Farah averages 65.67 (PASS).
const FINAL = '/home/agent/Documents/grades-final.csv'

/**
 * An average as the CSV shows it is right when it is the true average rounded to the decimals
 * it shows: the CSV holds what the sheet displays, so a sheet formatted to 1 decimal writes
 * "62.7" for Dev (right), and one with the general format writes "62.6666666666667" (right too).
 * Cut instead of rounded ("62.6") or a wrong average is wrong at any precision.
 */
function rightToItsPrecision(shown: string | undefined, average: number): boolean {
  if (shown === undefined || !/^-?\d+(\.\d+)?$/.test(shown.trim())) return false
  const decimals = shown.trim().split('.')[1]?.length ?? 0
  return Math.abs(Number(shown) - average) <= 0.5 * 10 ** -decimals + 1e-9
}

/**
 * Fills E and F: E1 is reached with ctrl+Home, ctrl+Right (last column), Right. Tab moves right
 * and Enter goes back to column E of the next row. `average` and `result` are what is typed in
 * row `r`: by default the AVERAGE formula and an IF on the pass mark `passMark`.
 */
async function fillColumns(
  { computer }: SolutionContext,
  {
    passMark = 65,
    average = (r: number) => `=AVERAGE(B${r}:D${r})`,
    result = (r: number) => `=IF(E${r}>=${passMark},"PASS","FAIL")`,
  } = {},
): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['ctrl', 'right'])
  await computer.keypress(['right'])
  await computer.type('Average\tResult\n')
  for (let row = 2; row <= ROWS.length; row++) {
    await computer.type(`${average(row)}\t${result(row)}\n`)
  }
}

const test = agentTest({
  id: 'desktop-spreadsheet-grades',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'silver',
  tool: 'gnumeric',
  goal: 'The spreadsheet open on screen is ~/grades.csv. Add a column "Average" with each student\'s average of the three tests, and next to it a column "Result" that says PASS when the average is at least 65 and FAIL otherwise. Save the result as a new CSV file, ~/Documents/grades-final.csv, and leave ~/grades.csv as it was.',
  setup_cmd: [`cat > ~/grades.csv <<'EOF'\n${GRADES}EOF`, launchApp('gnumeric', '~/grades.csv')].join('\n'),
  solution: async (context) => {
    await fillColumns(context)
    await gnumericExportCsv(context, FINAL)
  },
  near_misses: {
    'pass mark of 60': async (context) => {
      await fillColumns(context, { passMark: 60 })
      await gnumericExportCsv(context, FINAL)
    },
    // Ctrl+E repeats the export the sheet came from: it writes over ~/grades.csv.
    'original overwritten': async (context) => {
      await fillColumns(context)
      await gnumericRepeatExport(context)
      await untilShell(context.desktop, 'grep -q Average ~/grades.csv')
    },
    // The averages cut to one decimal, not rounded: Dev's 62.67 shows as 62.6.
    'averages cut not rounded': async (context) => {
      await fillColumns(context, { average: (r) => `=TRUNC(AVERAGE(B${r}:D${r}),1)` })
      await gnumericExportCsv(context, FINAL)
    },
    // The right file, written from a terminal with awk: the spreadsheet never saved it.
    shortcut: (context) =>
      inTerminal(context, [
        `awk -F, 'NR==1 { print $0 ",Average,Result"; next } { a = ($2+$3+$4)/3; print $0 "," a "," (a >= 65 ? "PASS" : "FAIL") }' ~/grades.csv > ${FINAL}`,
      ], { forge: { recent: [{ path: FINAL, app: 'Gnumeric Spreadsheet' }] } }),
  },
  alternatives: {
    // Averages rounded to one decimal, as a sheet formatted to one decimal shows them.
    'averages to one decimal': async (context) => {
      await fillColumns(context, { average: (r) => `=ROUND(AVERAGE(B${r}:D${r}),1)` })
      await gnumericExportCsv(context, FINAL)
    },
    // Results typed in as text, not worked out by a formula.
    'results typed as text': async (context) => {
      await fillColumns(context, { result: (r) => STUDENTS[r - 2]!.result })
      await gnumericExportCsv(context, FINAL)
    },
  },
})

test('adds Average and Result columns in a new CSV, saved by the spreadsheet', async ({ run, shell, observed, expect }) => {
  await run()
  const original = await shell('cat /home/agent/grades.csv')
  expect(original.stdout, '~/grades.csv is unchanged').toBe(GRADES)
  const saved = await shell(`cat ${FINAL}`)
  expect(saved.exitCode, 'grades-final.csv exists in Documents').toBe(0)
  const rows = parseCsv(saved.stdout)
  expect(rows[0], 'the header gains Average and Result').toEqual([...ROWS[0]!, 'Average', 'Result'])
  expect(rows.slice(1).map((row) => row.slice(0, 4)), 'the students and scores are unchanged').toEqual(ROWS.slice(1))
  const averages = STUDENTS.map((s, i) => ({ student: s, shown: rows[i + 1]?.[4] }))
  const wrong = averages.filter(({ student, shown }) => !rightToItsPrecision(shown, student.average)).map(({ student, shown }) => `${student.name}: ${shown}`)
  expect(wrong, 'each average is right, to the precision shown').toEqual([])
  expect(rows.slice(1).map((row) => row[5]), 'each result is PASS or FAIL by the 65 mark').toEqual(STUDENTS.map((s) => s.result))
  await expectWrittenBy({ expect, observed, shell }, FINAL, 'gnumeric')
})
