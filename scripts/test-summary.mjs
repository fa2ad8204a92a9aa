// Prints vitest's JSON report as the plain closing line CI reads: "N passed, N failed, N skipped".
import fs from "node:fs";

const report = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
