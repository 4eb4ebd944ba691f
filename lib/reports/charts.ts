/**
 * Charts are Apache ECharts rendered on the server to SVG (`ssr: true`, no DOM): the page
 * carries them inline, so it opens offline from S3 with no script and no request elsewhere,
 * and ECharts is a well-kept library whose SVG output is plain markup a browser draws at once.
 *
 * ECharts is loaded on first use rather than imported: it is most of the report builder's
 * code, and a run that finds nothing to render never needs it (docs/performance.md, cold
 * start). The stack bundles ./echarts-setup.mts into a file of its own beside the function
 * (infra/bundling.ts, LAZY_CHUNKS), so a cold start neither runs nor parses it; the `.mjs`
 * specifier below is that file's name, and the source's under tsx and vitest.
 */
type ECharts = typeof import('echarts/core');
let echarts: ECharts | undefined;

/** Loads and registers ECharts once (./echarts-setup.mts); `chartSvg` needs it loaded. */
export async function loadCharts(): Promise<void> {
  echarts ??= (await import('./echarts-setup.mjs')).echarts;
}

export interface Series {
  name: string;
  values: readonly (number | null)[];
  /** Bars of one stack sit on top of each other. */
  stack?: string;
}

export interface ChartSpec {
  kind: 'bar' | 'line';
  /** What the chart shows, for screen readers (the table beside it has the numbers). */
  title: string;
  categories: readonly string[];
  series: readonly Series[];
  /** Horizontal bars with the categories down the side (long site names). */
  horizontal?: boolean;
  width?: number;
  height?: number;
}

const PALETTE = ['#3b6fb6', '#d9822b', '#2f9e44', '#c92a2a', '#7048e8'];

/** A chart as an inline `<svg>` element (after `loadCharts`). */
export function chartSvg(spec: ChartSpec): string {
  if (!echarts) throw new Error('chartSvg needs loadCharts() to have finished first');
  const width = spec.width ?? 640;
  const height =
    spec.height ?? (spec.horizontal ? Math.max(160, spec.categories.length * 18 + 60) : 280);
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    const categoryAxis = {
      type: 'category' as const,
      data: [...spec.categories],
      axisLabel: spec.horizontal ? { width: 150, overflow: 'truncate' as const } : {},
      ...(spec.horizontal ? { inverse: true } : {}),
    };
    const valueAxis = { type: 'value' as const, minInterval: 1 };
    chart.setOption({
      animation: false,
      color: PALETTE,
      aria: { enabled: true, label: { description: spec.title } },
      legend: spec.series.length > 1 ? { top: 0 } : { show: false },
      grid: { left: spec.horizontal ? 170 : 50, right: 20, top: 30, bottom: 30 },
      xAxis: spec.horizontal ? valueAxis : categoryAxis,
      yAxis: spec.horizontal ? categoryAxis : valueAxis,
      series: spec.series.map((s) => ({
        type: spec.kind,
        name: s.name,
        data: [...s.values],
        ...(s.stack ? { stack: s.stack } : {}),
        ...(spec.kind === 'line' ? { showSymbol: false, connectNulls: false } : {}),
      })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
