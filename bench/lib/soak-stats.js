// RSS statistics of a soak from its samples: growth (a leak) and GC swings are reported apart.
export function soakStats(samples, fromMinute = 5) {
  const after = samples.filter((s) => s.minute >= fromMinute);
  const at = after[0]?.rssBytes ?? NaN;
  const values = after.map((s) => s.rssBytes);
  // Least-squares slope of RSS over time: a leak shows as a positive trend, GC as noise around it.
  const n = after.length;
  const mx = after.reduce((a, s) => a + s.minute, 0) / n;
  const my = values.reduce((a, v) => a + v, 0) / n;
  const slope = after.reduce((a, s) => a + (s.minute - mx) * (s.rssBytes - my), 0) / after.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return {
    rssAtMinute5Bytes: at,
    rssMaxAfterMinute5Bytes: Math.max(...values),
    rssMinAfterMinute5Bytes: Math.min(...values),
    rssLastBytes: values.at(-1),
    maxGrowthFromMinute5: +((Math.max(...values) - at) / at).toFixed(4),
    maxDropFromMinute5: +((at - Math.min(...values)) / at).toFixed(4),
    trendMiBPerHour: +((slope * 60) / 2 ** 20).toFixed(2),
  };
}
