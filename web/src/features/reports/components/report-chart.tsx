import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line (or bars) of a chart: its name in the legend, its values by the x labels, its colour. */
export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

const HEIGHT = 240;
/** The y axis's steps for counts: whole messages, talks and settings only (no 0.2 of a message). */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];

/**
 * A report's chart, drawn with uPlot on a canvas (decision 038). It is a picture for sighted readers: the
 * table under it says the same to a screen reader, so the chart is one image with a name (product.md §2.9).
 */
export function ReportChart({
  label,
  labels,
  series,
  bars = false,
  counts = false,
  empty,
}: {
  label: string;
  /** What stands in for the chart when there is nothing to draw (the table still has its rows). */
  empty: string;
  labels: string[];
  series: ChartSeries[];
  bars?: boolean;
  /** The values are counts: the y axis steps by whole numbers. */
  counts?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const width = () => Math.max(280, element.clientWidth);
    // Bars side by side (at most two series): the first left of its label, the second right of it.
    const barPaths = (index: number) =>
      uPlot.paths.bars?.({
        size: [0.7 / series.length, 48],
        align: series.length === 1 ? 0 : index === 0 ? 1 : -1,
      });
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        scales: {
          x: { time: false, range: [-0.5, labels.length - 0.5] },
          // Counts start at 0 and show at least 0–5, so an empty month is not drawn on a 0–100 scale.
          ...(counts ? { y: { range: (_plot, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } } : {}),
        },
        axes: [
          {
            values: (_plot, splits) => splits.map((split) => labels[split] ?? ''),
            splits: () => labels.map((_label, index) => index).filter(everyNth(labels.length)),
            stroke: '#4f5a70',
            grid: { show: false },
          },
          { stroke: '#4f5a70', grid: { stroke: '#ece3cf' }, ...(counts ? { incrs: COUNT_STEPS } : {}) },
        ],
        series: [
          { label: '' },
          ...series.map((each, index) => ({
            label: each.label,
            stroke: each.color,
            ...(bars ? { fill: each.color } : {}),
            width: 2,
            spanGaps: false,
            ...(bars ? { paths: barPaths(index), points: { show: false } } : {}),
          })),
        ],
        legend: { show: true, live: false },
        cursor: { show: false },
      },
      [labels.map((_label, index) => index), ...series.map((each) => each.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [labels, series, bars, counts]);
  if (labels.length === 0) return <p className="report-chart__empty">{empty}</p>;
  return <div ref={box} className="report-chart" role="img" aria-label={label} />;
}

/** At most about 16 labels along the x axis: every nth one. */
const everyNth = (count: number) => {
  const step = Math.max(1, Math.ceil(count / 16));
  return (index: number) => index % step === 0;
};
