import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    // Tests in this process must never reach the developer's own keyring: the native keyring
    // module reads the process's environment, not the one a test hands to main(). The keyring
    // tests bring a Secret Service of their own.
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/chamberctl-tests-have-no-bus' },
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
