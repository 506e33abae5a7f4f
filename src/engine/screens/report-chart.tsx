import { Box } from '@chakra-ui/react';
import { Chart, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatValue } from '../../../core/formats.ts';

/** One bar or point: its words (`name`) and a figure per series. */
export type ChartPoint = { name: string } & Record<string, number | string>;

export interface ReportChartProps {
  type: 'bar' | 'line';
  direction: 'vertical' | 'horizontal';
  stacked: boolean;
  points: ChartPoint[];
  series: { key: string; label: string; format?: string }[];
  /** What the chart shows, in a sentence: its name for a screen reader, which reads the table beside it for the figures. */
  label: string;
}

/** Series take the brand's colour first, then colours that tell apart from it. */
const COLORS = ['brand.solid', 'orange.solid', 'purple.solid', 'blue.solid', 'green.solid', 'gray.solid'];
const HEIGHT_PER_BAR = 36;
/** Room for a bar's words across: a long step's name wraps onto two lines rather than crowd a phone's bars out. */
const NAME_WIDTH = 150;

/** A report section's chart (Chakra's charts on Recharts), drawn from the figures of its table. */
export default function ReportChart({ type, direction, stacked, points, series, label }: ReportChartProps) {
  const chart = useChart<ChartPoint>({ data: points, series: series.map((s, i) => ({ name: s.key, color: COLORS[i % COLORS.length], label: s.label })) });
  const format = (key: string | undefined) => (value: unknown) => formatValue(series.find((s) => s.key === key)?.format ?? series[0]?.format, value);
  const across = type === 'bar' && direction === 'horizontal';
  const height = across ? Math.max(160, points.length * HEIGHT_PER_BAR + 40) : 260;
  const tooltip = <Tooltip cursor={{ fill: chart.color('bg.muted') }} content={<Chart.Tooltip formatter={(value, name) => [format(String(name))(value), series.find((s) => s.key === name)?.label ?? name]} />} />;
  const legend = series.length > 1 ? <Legend content={<Chart.Legend />} /> : null;
  // Ticks in the muted text colour: the border colour the library's examples use is too faint to read (WCAG 1.4.11).
  const tick = { fill: chart.color('fg.muted') };
  const valueAxis = { tickFormatter: format(series[0]?.key), tickLine: false, axisLine: false, tick };
  const nameAxis = { dataKey: chart.key('name'), tickLine: false, stroke: chart.color('border'), tick };
  return (
    <Box role="img" aria-label={label} data-report-chart>
      <Chart.Root h={`${height}px`} aspectRatio="auto" chart={chart}>
        {type === 'line' ? (
          <LineChart responsive data={chart.data} margin={{ left: 8, right: 8 }}>
            <CartesianGrid stroke={chart.color('border.muted')} vertical={false} />
            <XAxis {...nameAxis} />
            <YAxis {...valueAxis} width={72} />
            {tooltip}
            {legend}
            {chart.series.map((item) => (
              <Line key={String(item.name)} isAnimationActive={false} dataKey={chart.key(item.name)} stroke={chart.color(item.color)} strokeWidth={2} dot={false} />
            ))}
          </LineChart>
        ) : (
          <BarChart responsive data={chart.data} layout={across ? 'vertical' : 'horizontal'} margin={{ left: 8, right: 8 }}>
            <CartesianGrid stroke={chart.color('border.muted')} vertical={across} horizontal={!across} />
            {across ? <XAxis type="number" {...valueAxis} /> : <XAxis {...nameAxis} />}
            {across ? <YAxis type="category" {...nameAxis} width={NAME_WIDTH} /> : <YAxis {...valueAxis} width={72} />}
            {tooltip}
            {legend}
            {chart.series.map((item) => (
              <Bar key={String(item.name)} isAnimationActive={false} dataKey={chart.key(item.name)} fill={chart.color(item.color)} stackId={stacked ? 'stack' : undefined} />
            ))}
          </BarChart>
        )}
      </Chart.Root>
    </Box>
  );
}
