/** The leaderboard over every run in a results folder: `leaderboard.html` and `leaderboard.json`. */
export { Leaderboard, LeaderboardRow, Cell, Coverage } from './schema.ts'
export { buildLeaderboard } from './build.ts'
export { collectRunFolders, type CollectedRuns } from '../runs/collect.ts'
export { graderOf, NO_GRADER } from './grader.ts'
export { renderLeaderboard } from './render.tsx'
export { writeLeaderboard, LEADERBOARD_HTML, LEADERBOARD_JSON, type WrittenLeaderboard } from './write.ts'
