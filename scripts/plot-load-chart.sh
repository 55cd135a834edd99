#!/usr/bin/env bash
# Draws a machine file's rated-capacity chart (load_moment.chart; docs/model.md, Stability)
# as rated load against radius, one line per boom length, with gnuplot.
#   scripts/plot-load-chart.sh [MODEL.json] [OUT.png]
# Defaults: models/t250.json, docs/figures/load_chart.png.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-models/t250.json}
out=${2:-docs/figures/load_chart.png}
command -v gnuplot >/dev/null || { echo "plot-load-chart: needs gnuplot (Debian gnuplot-nox; scripts/setup.sh installs it)" >&2; exit 2; }
command -v node >/dev/null || { echo "plot-load-chart: needs node (scripts/setup.sh installs it)" >&2; exit 2; }

data=$(mktemp)
trap 'rm -f "$data"' EXIT
# one block per boom length: radius [m], rated load [t], only the radii that boom length
# reaches between the boom's angle limits (the chart holds more, for interpolation)
node -e '
  const m = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const c = m.load_moment.chart;
  const v = (x) => (x && typeof x === "object" && "value" in x ? x.value : x);
  const L = v(c.boom_length_m), R = v(c.radius_m), T = v(c.rated_kg);
  const a1 = v(m.crane.a1_m), rad = Math.PI / 180;
  const lo = v(m.crane.boom_max_deg) * rad, hi = v(m.crane.boom_min_deg) * rad;
  L.forEach((len, i) => {
    console.log(`# boom ${len} m`);
    R.forEach((r, j) => {
      if (r >= len * Math.cos(lo) - a1 - 1e-9 && r <= len * Math.cos(hi) - a1 + 1e-9)
        console.log(`${r} ${T[i][j] / 1000}`);
    });
    console.log("\n");
  });
  process.stderr.write(L.map((l) => `${l} m`).join(" "));
' "$model" > "$data" 2> "$data.titles"
titles=$(cat "$data.titles"); rm -f "$data.titles"

gnuplot <<EOF
set terminal pngcairo size 900,560 font ",11"
set output "$out"
set title "Rated load over outriggers, 360 deg ($model): 85 % of the tipping load, at most 25 t;\nthe radii each boom length reaches between 0 and 50 deg"
set xlabel "radius, swing axis to the boom tip [m]"
set ylabel "rated load, grab included [t]"
set logscale y
set yrange [0.5:30]
set grid
set key title "boom length" right top
titles = "$titles"
plot for [i=0:words(titles)/2-1] "$data" index i using 1:2 with linespoints title word(titles, 2*i+1).' m'
EOF
echo "plot-load-chart: wrote $out"
