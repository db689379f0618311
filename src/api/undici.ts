// The parts of undici a CLI uses: a keep-alive Agent and `request`. undici's index also loads
// fetch, WebSocket, caches and their dependencies, which cost a one-request process ~60 ms of
// start-up for nothing; these two modules are all `request` over an Agent needs (api-request
// rather than api/index, which would load stream, pipeline, upgrade and connect as well). The package
// version is pinned by the lockfile, and the unit tests exercise this path with MockAgent.
import type { Dispatcher } from 'undici'
import AgentModule from 'undici/lib/dispatcher/agent.js'
import apiRequest from 'undici/lib/api/api-request.js'

export const Agent = AgentModule

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>

export function request(
  dispatcher: Dispatcher,
  url: string,
  options: RequestOptions,
): Promise<Dispatcher.ResponseData> {
  const parsed = new URL(url)
  return apiRequest.call(dispatcher, {
    ...options,
    origin: parsed.origin,
    path: parsed.pathname + parsed.search,
  })
}
