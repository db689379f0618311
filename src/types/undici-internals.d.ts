// Types for the undici module src/api/undici.ts loads directly (see there for why).
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici'
  export default Agent
}
