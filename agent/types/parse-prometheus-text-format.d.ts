// Types for parse-prometheus-text-format, which ships none: the prom2json-shaped families it returns.
declare module 'parse-prometheus-text-format' {
  export interface PromSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface PromFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PromSample[];
  }
  /** Throws InvalidLineError on a line that is not Prometheus text format. */
  export default function parsePrometheusTextFormat(text: string): PromFamily[];
}
