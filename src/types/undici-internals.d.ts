// Types for the undici module src/api/undici.ts loads directly (see there for why).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici'
  export default Agent
}
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici'
  export default Pool
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import { EnvHttpProxyAgent } from 'undici'
  export default EnvHttpProxyAgent
}
declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici'
  export default buildConnector
}
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici'
  const connect: Dispatcher['connect']
  export default connect
}
