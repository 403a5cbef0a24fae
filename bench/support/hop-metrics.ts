/** Reading a running hop's GET /metrics (Prometheus text), as the benches do around windows. */

/** The whole text of a hop's /metrics. */
export async function scrapeMetrics(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics on port ${port} answered ${response.status}`);
  return response.text();
}

/** A sample's value, by its name with labels as printed (`a_total{x="y"}`); 0 if absent. */
export function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

/** hop's redirect answers so far, by outcome (hop_redirect_duration_seconds_count). */
export function redirectOutcomes(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(
    /^hop_redirect_duration_seconds_count\{outcome="([a-z_0-9]+)"\} (\S+)$/gm,
  )) {
    counts[match[1] as string] = Number(match[2]);
  }
  return counts;
}
