// One pass at a time: a kick while a pass runs queues exactly one more after it (a burst of watch events is one
// pass), and none once stopped. Shared by the cluster agent's reconciler and the operator.
export function singleFlight(pass: () => Promise<void>, onError: (error: unknown) => void, stopped: () => boolean): () => void {
  let running = false;
  let again = false;
  const kick = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void pass()
      .catch(onError)
      .finally(() => {
        running = false;
        if (again && !stopped()) {
          again = false;
          kick();
        }
      });
  };
  return kick;
}
