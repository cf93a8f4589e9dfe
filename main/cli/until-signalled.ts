// How a long-running command ends: at SIGINT or SIGTERM it stops what it serves, once, however many signals come.

/** Resolves once `stop` has finished after the first SIGINT or SIGTERM. */
export function untilSignalled(stop: () => Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping: Promise<void> | undefined;
    const onSignal = (): void => {
      stopping ??= stop().then(() => resolve());
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
