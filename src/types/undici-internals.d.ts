// Types for the two undici modules src/api/undici.ts loads directly (see there for why).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici'
  export default Agent
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici'
  function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>
  export default request
}
