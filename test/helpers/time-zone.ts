// Runs a test with this process's clock in another time zone: Node reads a TZ assigned while it
// runs. Each test file has a process of its own, and the old zone is put back afterwards.
export const FAR_ZONES = ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'] as const

export async function inTimeZone<T>(zone: string, test: () => T | Promise<T>): Promise<T> {
  const before = process.env.TZ
  process.env.TZ = zone
  try {
    return await test()
  } finally {
    if (before === undefined) delete process.env.TZ
    else process.env.TZ = before
  }
}
