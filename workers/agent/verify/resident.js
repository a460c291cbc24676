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

const MARK = "\u001estepforge-resident ";
const RUNTIME = path.dirname(path.dirname(require.resolve("@cucumber/cucumber/package.json")));

function forgetSuites() {
  for (const file of Object.keys(require.cache)) {
    if (file !== __filename && !file.startsWith(RUNTIME + path.sep)) delete require.cache[file];
  }
}

function useEnvironment(env) {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
}

async function replay(request) {
  forgetSuites();
  useEnvironment(request.env);
  process.chdir(request.cwd);
  const environment = { cwd: request.cwd, env: request.env, stdout: process.stdout, stderr: process.stderr };
  const { runConfiguration } = await loadConfiguration(
    { file: request.config, provided: { tags: request.tags } }, environment);
  const { success } = await runCucumber(runConfiguration, environment);
  return { success };
}

// A promise a step left unhandled fails no replay of its own and must not end the process.
process.on("unhandledRejection", (reason) => {
  console.error(`unhandled rejection: ${String((reason && reason.message) || reason).split("\n")[0]}`);
});

let queue = Promise.resolve();
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  queue = queue.then(async () => {
    let answer;
    try {
      answer = await replay(JSON.parse(line));
    } catch (error) {
      answer = { error: String((error && error.stack) || error) };
    }
    process.stdout.write(MARK + JSON.stringify(answer) + "\n");
  });
});
lines.on("close", () => process.exit(0));
