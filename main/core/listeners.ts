// Where this manager's network listeners really are, as the process that started them knows: the profile
// rules and the preflight probe these addresses with real handshakes instead of trusting a setting.
export interface ListenerAddress {
  host: string;
  port: number;
  /** The name in the listener's certificate. */
  serverName: string;
}

export class Listeners {
  console: ListenerAddress | undefined;
  gateway: ListenerAddress | undefined;
}
