/**
 * Preloaded into a benchmark's child process (`node --import …/peak-rss.js`): when the process
 * exits, writes its peak resident memory in bytes (getrusage's maxrss) and its CPU time in ms
 * (user + system, all threads) as JSON to the file named by FLEETPLAN_BENCH_RSS_FILE. The child is
 * the real CLI, unchanged; this only reads its figures.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['FLEETPLAN_BENCH_RSS_FILE'];
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssBytes: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
