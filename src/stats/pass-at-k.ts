/**
 * pass@k and pass^k from n recorded attempts of one task with c passes. Both are unbiased
 * estimators over the n attempts, rather than 1 - (1 - c/n)^k and (c/n)^k, which are biased
 * when n is small (Chen et al. 2021, "Evaluating Large Language Models Trained on Code").
 */

/** Unbiased pass@k from n attempts with c passes (Chen et al. 2021): 1 - C(n-c,k)/C(n,k). Throws RangeError unless 1<=k<=n and 0<=c<=n (integers). Numerically stable product form, no factorials. */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k)
  // Fewer than k failures: every draw of k attempts holds a pass.
  if (n - c < k) return 1
  // C(n-c,k)/C(n,k) = Π_{i=n-c+1..n} (1 - k/i): c factors in (0,1], no large numbers.
  let allFail = 1
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i
  return 1 - allFail
}

/** pass^k (all k of k attempts pass), unbiased from n attempts: C(c,k)/C(n,k). Same preconditions. */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k)
  if (c < k) return 0
  // C(c,k)/C(n,k) = Π_{i=0..k-1} (c-i)/(n-i).
  let allPass = 1
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i)
  return allPass
}

function checkCounts(n: number, c: number, k: number): void {
  if (![n, c, k].every(Number.isInteger)) throw new RangeError(`n, c and k must be integers (got n=${n}, c=${c}, k=${k})`)
  if (k < 1 || k > n) throw new RangeError(`k must be in 1..n (got k=${k}, n=${n})`)
  if (c < 0 || c > n) throw new RangeError(`c must be in 0..n (got c=${c}, n=${n})`)
}
