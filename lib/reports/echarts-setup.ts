import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/**
 * ECharts with only the chart types and components the page draws, registered: imported by
 * name so the bundle holds no more of ECharts than that, and loaded by `loadCharts` on first
 * use.
 */
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { echarts };
