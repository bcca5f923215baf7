// `node:http` for the function bundles, taken with process.getBuiltinModule instead of an ES import.
// On Node 22 an ES import of node:http builds a facade that reads every export, and three of them
// (WebSocket, CloseEvent, MessageEvent) are getters that load undici: up to ~30 ms of each cold start
// of a function that bundles the AWS SDK. docs/deployment.md#cold-starts
module.exports = process.getBuiltinModule('node:http');
