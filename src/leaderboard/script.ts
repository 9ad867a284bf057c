/**
 * The page's only script, inlined: a header click sorts the rows by that column's `data-sort`
 * (numbers as numbers, empty cells last either way), typing in the box hides rows whose agent,
 * model and grader do not hold every word typed. Without it the page still reads, best rate first.
 */
export const LEADERBOARD_JS = `(() => {
  const table = document.getElementById('board')
  const box = document.getElementById('filter')
  const shown = document.getElementById('shown')
  if (!table || !box || !shown) return
  const body = table.tBodies[0]
  const rows = [...body.rows]
  const headers = [...table.tHead.rows[0].cells]

  const valueOf = (row, column) => {
    const raw = row.cells[column].dataset.sort ?? ''
    if (raw === '') return null
    const n = Number(raw)
    return Number.isNaN(n) ? raw.toLowerCase() : n
  }
  const sortBy = (column, descending) => {
    const sorted = [...body.rows].sort((a, b) => {
      const x = valueOf(a, column), y = valueOf(b, column)
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true })
      return descending ? -order : order
    })
    for (const row of sorted) body.appendChild(row)
    headers.forEach((th, i) => th.setAttribute('aria-sort', i === column ? (descending ? 'descending' : 'ascending') : 'none'))
  }
  headers.forEach((th, column) => {
    const button = th.querySelector('button')
    if (!button) return
    button.addEventListener('click', () => {
      const now = th.getAttribute('aria-sort')
      // Numbers start high (best first), text starts at A; a second click turns it round.
      sortBy(column, now === 'none' || now === null ? th.dataset.type === 'number' : now === 'ascending')
    })
  })

  const filter = () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean)
    let visible = 0
    for (const row of rows) {
      row.hidden = !words.every((word) => row.dataset.search.includes(word))
      if (!row.hidden) visible++
    }
    shown.textContent = visible + ' of ' + rows.length + ' rows'
  }
  box.addEventListener('input', filter)
  document.getElementById('tools').hidden = false
  filter()
})()`
