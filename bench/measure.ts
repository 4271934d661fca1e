/**
 * Runs one fleetplan command in this process and prints its wall time and peak memory as JSON.
 * Started as a child process by the benchmarks so that every measurement has a fresh heap.
 *   node dist/bench/measure.js plan -o json --repo DIR
 */
import { performance } from 'node:perf_hooks';
import { runCli } from '../src/cli/run.js';

let bytes = 0;
const sink = { write: (s: string) => ((bytes += s.length), true) };
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const code = await runCli(process.argv.slice(2), { stdout: sink, stderr: sink, env: {}, cwd: process.cwd() });
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
const maxRssMB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(JSON.stringify({ code, ms, cpuMs, maxRssMB, outputBytes: bytes }) + '\n');
