/** Estimators for the summary's numbers: pass@k, intervals, and paired tests between runs. */
export { passAtK, passHatK } from './pass-at-k.ts'
export { Interval, IntervalMethod, normalQuantile, wilson, wilsonBounds } from './interval.ts'
export { seededRandom } from './random.ts'
export { type BootstrapOptions } from './bootstrap.ts'
export { clusteredWilson } from './clustered.ts'
export { mcnemarExact, pairedBootstrap, type PairedDifference } from './paired.ts'
