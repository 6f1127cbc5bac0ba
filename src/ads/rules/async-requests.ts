/** An asynchronous request set's progress, from its requests counted by status (status -> how many). */
export interface AsyncRequestSetProgress {
  totalCount: number;
  initialCount: number;
  inProgressCount: number;
  successCount: number;
  errorCount: number;
  canceledCount: number;
  /** No request is left to run (none waiting, none running). */
  isCompleted: boolean;
}

export function asyncRequestSetProgress(countsByStatus: ReadonlyMap<string, number>): AsyncRequestSetProgress {
  const of = (status: string) => countsByStatus.get(status) ?? 0;
  return {
    totalCount: [...countsByStatus.values()].reduce((a, b) => a + b, 0),
    initialCount: of('INITIAL'),
    inProgressCount: of('IN_PROGRESS'),
    successCount: of('SUCCESS'),
    errorCount: of('ERROR'),
    canceledCount: of('CANCELED'),
    isCompleted: of('INITIAL') + of('IN_PROGRESS') === 0,
  };
}
