// The HTML report's inline style and script: the page must open from disk with no network at all.
export const STYLE = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #1f2328; }
body { margin: 24px auto; max-width: 1200px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 8px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.banner { padding: 10px 14px; border-radius: 6px; font-weight: 600; margin: 8px 0; }
.banner.exit-0 { background: #dcfce7; } .banner.exit-1 { background: #fee2e2; } .banner.exit-3 { background: #e5e7eb; }
.muted { color: #57606a; }
table { border-collapse: collapse; margin: 4px 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
table.matrix td.cell { padding: 0; }
table.matrix a { display: block; padding: 6px 10px; color: inherit; text-decoration: none; min-width: 120px; }
table.matrix a:hover { filter: brightness(0.95); }
.GREEN { background: #dcfce7; } .RED { background: #fee2e2; } .INCONCLUSIVE { background: #fef9c3; } .ERROR { background: #e5e7eb; } .UNSUPPORTED { background: #f3f4f6; color: #6b7280; }
td.cell.unexpected, td.cell.error { outline: 3px solid #cf222e; outline-offset: -3px; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; border: 1px solid #0002; vertical-align: baseline; }
.dot.GREEN { background: #1a7f37; } .dot.RED { background: #cf222e; } .dot.INCONCLUSIVE { background: #bf8700; } .dot.ERROR { background: #57606a; } .dot.UNSUPPORTED { background: #d0d7de; }
.status { float: right; font-weight: 700; margin-left: 8px; }
.findings { display: block; font-size: 12px; color: #57606a; }
.dots { display: block; } .dots .dot { margin-right: 2px; }
details { margin: 4px 0; }
details.cell-detail { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; margin: 10px 0; }
details.cell-detail > summary { cursor: pointer; font-weight: 600; }
details.cell-detail:target, details.cell-detail.focus { box-shadow: 0 0 0 3px #0969da55; }
details.finding > summary, details.timeline > summary { cursor: pointer; }
details.finding.red > summary { color: #cf222e; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; font: 12px/1.4 ui-monospace, monospace; margin: 4px 0; white-space: pre; }
pre.diff .add { background: #dafbe1; display: block; } pre.diff .del { background: #ffebe9; display: block; } pre.diff .hunk { color: #8250df; display: block; }
pre .boundary { background: #fff8c5; font-weight: 600; display: block; }
.run { border-top: 1px dashed #d0d7de; padding-top: 6px; margin-top: 6px; }
code { font: 12px ui-monospace, monospace; }
`;

// A click on a matrix cell opens its details; a RED cell also opens its red findings, so the diff is right there.
export const SCRIPT = `
function openCell(id) {
  var cell = document.getElementById(id);
  if (!cell) return;
  document.querySelectorAll('details.cell-detail.focus').forEach(function (d) { d.classList.remove('focus'); });
  cell.open = true;
  cell.classList.add('focus');
  if (cell.dataset.verdict === 'RED') cell.querySelectorAll('details.finding.red').forEach(function (d) { d.open = true; });
  cell.scrollIntoView({ block: 'start' });
}
document.querySelectorAll('table.matrix a[data-cell]').forEach(function (a) {
  a.addEventListener('click', function (event) {
    event.preventDefault();
    try { history.replaceState(null, '', '#' + a.dataset.cell); } catch (e) { /* some file:// contexts refuse; the cell still opens */ }
    openCell(a.dataset.cell);
  });
});
if (location.hash.length > 1) openCell(decodeURIComponent(location.hash.slice(1)));
`;
