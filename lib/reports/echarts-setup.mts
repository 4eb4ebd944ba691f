import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/**
 * ECharts with only the chart types and components the page draws, registered: imported by
 * name so the bundle holds no more of ECharts than that, and loaded by `loadCharts` on first
 * use. An `.mts` so that its bundled chunk, an `.mjs` beside the function's index.mjs, and this
 * source answer the same `import()` specifier.
 */
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { echarts };
