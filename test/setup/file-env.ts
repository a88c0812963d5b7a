import { afterAll } from "vitest";

// The functions read their configuration from process.env at cold start, and the files that
// cold-start them set it first (`withEnv`). Where files share a worker (`isolate: false`), a
// variable one file leaves set is read by the next file's cold start: a KEB_TOKEN_URL left behind
// made other files' audit functions ask for a client secret. Each file ends with the environment
// it started with, as a fresh process would give the next one.

const atStart = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in atStart)) delete process.env[name];
  Object.assign(process.env, atStart);
});
