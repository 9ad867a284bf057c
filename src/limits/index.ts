export { costOf, describeLimits, LimitReachedError, runLimitReached, taskLimitReached, unpricedCostLimit, type LimitHit, type LimitKind, type Spend } from './budget.ts'
export { addRunSpend, runSpend } from './run-spend.ts'
