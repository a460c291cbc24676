// What the hand-written baselines share (petclinic.js, teamtasks.js): the app's base URL from the command line, one
// browser, POST /__reset and a fresh context before each run of a flow (a flow is a run or a list of runs), and one
// JSON line {"flows": {id: ms}, "total_ms": ..., "failures": [...]}; the exit status is 1 when a flow failed.
const { chromium } = require("playwright-core");

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];
const VIEWPORT = { width: 1280, height: 800 };

function baseUrl(fallback) {
  return (process.argv[2] || process.env.STEPFORGE_BASE_URL || fallback).replace(/\/$/, "");
}

async function reset(base) {
  const response = await fetch(`${base}/__reset`, { method: "POST" });
  if (response.status !== 204) throw new Error(`reset answered HTTP ${response.status}`);
}

async function runFlows(base, flows, prepare = async () => {}) {
  const started = performance.now();
  const browser = await chromium.launch({
    executablePath: process.env.STEPFORGE_BROWSER_PATH || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const timings = {};
  const failures = [];
  try {
    for (const [id, flow] of Object.entries(flows)) {
      const flowStarted = performance.now();
      for (const run of [].concat(flow)) {
        await reset(base);
        const context = await browser.newContext({ viewport: VIEWPORT });
        try {
          await prepare(context);
          await run(await context.newPage());
        } catch (error) {
          failures.push(`${id}: ${String(error.message || error).split("\n")[0]}`);
        } finally {
          await context.close();
        }
      }
      timings[id] = Math.round(performance.now() - flowStarted);
    }
  } finally {
    await browser.close();
  }
  const total = Math.round(performance.now() - started);
  console.log(JSON.stringify({ flows: timings, total_ms: total, failures }));
  process.exitCode = failures.length ? 1 : 0;
}

// Runs the flows; an error outside any flow (no browser, the app down) exits 2.
function main(base, flows, prepare) {
  runFlows(base, flows, prepare).catch((error) => {
    console.error(error);
    process.exitCode = 2;
  });
}

module.exports = { baseUrl, main };
