// cucumber-js kept resident between replays (workers/agent/verify/resident.py): node, cucumber-js and playwright-core
// load once per worker process instead of once per replay. One replay at a time; a request is one JSON line on
// stdin, {"cwd", "env", "config", "tags"}, run with cucumber-js's own API as `cucumber-js --config <config> --tags
// <tags>` would run it in cwd with env; the answer is one line starting with MARK, {"success"} or {"error"}. Anything
// else this process prints (the formatters' output, the steps' console) is the replay's output. The suite's own
// files are loaded afresh for every replay (their require cache emptied), so a rewritten step definition counts.
// stdin closing (the worker gone, however it died) ends this process, and with it the browser it launched.
const path = require("path");
const readline = require("readline");
const { loadConfiguration, runCucumber } = require("@cucumber/cucumber/api");

const MARK = "\u001estepforge-resident ";  // the answer; MARK + "start" opens a replay's output
// The runtime's node_modules: cucumber-js, playwright-core and what they need stay loaded between replays.
const RUNTIME = path.resolve(require.resolve("@cucumber/cucumber/package.json"), "..", "..", "..");

function forgetSuites() {
  for (const file of Object.keys(require.cache)) {
    if (file !== __filename && !file.startsWith(RUNTIME + path.sep)) delete require.cache[file];
  }
  // A module keeps those it loaded in its children: forgotten ones must not be kept alive there.
  for (const module of Object.values(require.cache)) {
    module.children = module.children.filter((child) => require.cache[child.id] === child);
  }
}

function useEnvironment(env) {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
}

// Node turns a rejection nobody handles into an uncaught exception: cucumber-js fails the step running then, and
// outside a step a cucumber-js of its own would crash without a report. Here it fails the step the same way, or,
// outside a step, the replay.
let unhandled = null;
process.on("unhandledRejection", (reason) => {
  if (process.listenerCount("uncaughtException") > 0) {
    process.emit("uncaughtException", reason);
    return;
  }
  unhandled = unhandled || reason;
  console.error(`unhandled rejection: ${String((reason && reason.stack) || reason)}`);
});

async function replay(request) {
  forgetSuites();
  useEnvironment(request.env);
  process.chdir(request.cwd);
  unhandled = null;
  const environment = { cwd: request.cwd, env: request.env, stdout: process.stdout, stderr: process.stderr };
  const { runConfiguration } = await loadConfiguration(
    { file: request.config, provided: { tags: request.tags } }, environment);
  const { success } = await runCucumber(runConfiguration, environment);
  return { success: success && unhandled === null };
}

let queue = Promise.resolve();
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  queue = queue.then(async () => {
    process.stdout.write(`\n${MARK}start\n`);
    let answer;
    try {
      answer = await replay(JSON.parse(line));
    } catch (error) {
      answer = { error: String((error && error.stack) || error) };
    }
    process.stdout.write(`\n${MARK}${JSON.stringify(answer)}\n`);
  });
});
lines.on("close", () => process.exit(0));
