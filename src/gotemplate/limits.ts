/**
 * Bounds on template evaluation (ADR 0216). Go's text/template has almost none (it relies on
 * goroutine stacks of 1 GB and on the caller's patience); fleetplan runs in CI and in an Argo CD
 * sidecar, where a template such as `{{ range 1000000000 }}` must end in a clear error, not in an
 * out-of-memory kill or a stack overflow. Each limit is far above what a real ApplicationSet or
 * values template uses (those render kilobytes, iterate over tens of clusters and nest a few levels).
 */
export const TEMPLATE_LIMITS = {
  /** Characters one execution may write (64 Mi; a rendered Application is a few KiB). */
  maxOutput: 64 * 1024 * 1024,
  /** Iterations of all `range` actions of one execution together, and the length of a list `until`/`seq` builds. */
  maxRangeIterations: 1_000_000,
  /** Nested `{{template}}` calls (Go's own limit is 100000, beyond JavaScript's stack). */
  maxTemplateDepth: 1000,
  /** Nesting of parentheses and of if/range/with blocks in the text (Go limits parentheses to 10000). */
  maxNestingDepth: 1000,
} as const;
