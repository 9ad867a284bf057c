/**
 * A generated near miss that does not fit this task (the reference places no order, gives no
 * answer, cannot be repeated): the variant is skipped with this reason instead of run.
 */
export class NotApplicable extends Error {
  override name = 'NotApplicable'
}
