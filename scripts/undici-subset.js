// What the bundle takes for `undici` (scripts/build.js): its dispatchers and their request API,
// without the rest undici's index loads (fetch, WebSocket, EventSource, the caches, the mocks,
// the interceptors) nor the global dispatcher the index installs for `fetch()`, which
// coachbench does not call. test/engine/undici-subset.test.ts holds each export to be the
// index's own and the dispatchers' prototype to be what the index makes it.

import api from 'undici/lib/api/index.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

// As undici's index does: request(), stream(), pipeline(), connect() and upgrade() on every dispatcher.
Object.assign(Dispatcher.prototype, api);

export { default as buildConnector } from 'undici/lib/core/connect.js';
export { default as Agent } from 'undici/lib/dispatcher/agent.js';
export { default as Client } from 'undici/lib/dispatcher/client.js';
export { default as EnvHttpProxyAgent } from 'undici/lib/dispatcher/env-http-proxy-agent.js';
export { default as Pool } from 'undici/lib/dispatcher/pool.js';
export { default as ProxyAgent } from 'undici/lib/dispatcher/proxy-agent.js';
