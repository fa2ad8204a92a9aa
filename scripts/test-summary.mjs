// Prints vitest's JSON report as the plain closing lines CI reads: the slowest test files (where the 40-minute budget
// of `npm test` goes, which CI's log otherwise shows only for the files that ran last), then "N passed, N failed,
// N skipped" last.
import fs from "node:fs";

const SLOWEST = 15;
const report = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const root = process.cwd();
const files = report.testResults
  .map((file) => ({ name: file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name, seconds: (file.endTime - file.startTime) / 1000 }))
  .sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, file) => sum + file.seconds, 0);
console.log(`slowest test files (of ${files.length}, ${Math.round(total)} s in files):`);
for (const file of files.slice(0, SLOWEST)) console.log(`  ${file.seconds.toFixed(0).padStart(5)} s  ${file.name}`);
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
