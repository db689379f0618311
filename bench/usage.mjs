// Preloaded (--import) into a process whose peak memory and CPU time the bench reports: Node
// gives a parent no rusage of its children, so the child writes its own at exit.
//
// Peak memory is the kernel's high-water mark of this process image (VmHWM in /proc/self/status)
// where there is one: Linux carries getrusage's maxRSS over an exec from the process that spawned
// it, so a child of a bench holding 100 MiB would report at least 100 MiB whatever it used.
import { readFileSync, writeFileSync } from 'node:fs'

function peakKiB(fallback) {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (match) return Number(match[1])
  } catch {
    // not Linux
  }
  return fallback
}

process.on('exit', () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage()
  writeFileSync(
    process.env.BENCH_USAGE_FILE,
    JSON.stringify({ maxRssKiB: peakKiB(maxRSS), cpuMs: (userCPUTime + systemCPUTime) / 1000 }),
  )
})
