// The flows of examples/teamtasks.yaml (all 23 scenarios; each Examples row of TT-3 its own flow) written by hand
// with playwright-core, as a baseline for the generated cucumber-js suite: one browser, a fresh context per flow,
// POST /__reset before each flow (harness.js runs them).
//
//   NODE_PATH=<runtime>/node_modules node bench/handwritten/teamtasks.js http://127.0.0.1:8090
//
// Prints one JSON line {"flows": {id: ms}, "total_ms": ...}; exits 1 when a flow fails.
//
// The app links a stylesheet from a host that never answers (a CDN out of reach of CI): it would block the page's
// scripts and its load event forever, so each context aborts every request to a host other than the app's.
const path = require("path");
const harness = require("./harness");

const BASE = harness.baseUrl("http://127.0.0.1:8090");
const FILES = path.resolve(__dirname, "..", "..", "examples", "files");
// The web app and its JSON API (on another port of localhost) are the app; anything else is the unreachable CDN.
const APP_HOSTS = new Set([new URL(BASE).hostname, "localhost", "127.0.0.1", "[::1]"]);
const EXPECT_MS = 5000;  // the API answers 300-1000 ms late, and a step may wait for two or three answers
const EXPORT_MS = 15000;  // the export job takes 5 s on the server, polled every half second

async function expectText(page, text, timeout = EXPECT_MS) {
  await page.getByText(text).first().waitFor({ state: "visible", timeout });
}

async function expectHeading(page, name) {
  await page.getByRole("heading", { name, exact: true }).waitFor({ state: "visible", timeout: EXPECT_MS });
}

async function expectGone(locator, timeout = EXPECT_MS) {
  await locator.first().waitFor({ state: "hidden", timeout });
}

async function expectAbsent(locator, what) {  // checked once the page has shown what it was waiting for
  const count = await locator.count();
  if (count) throw new Error(`${what} is shown (${count} match(es)), expected it not to be`);
}

function row(page, title) {
  return page.getByRole("row").filter({ hasText: title });
}

function section(page, heading) {  // <section><h2>Profile</h2><input> <input> <button>Save</button></section>
  return page.locator("section").filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
}

// Signs in and waits for the task list (the sign-in and the list are two API answers).
async function signIn(page, email = "alice@example.com", password = "wonderland", name = "Alice") {
  await page.goto(`${BASE}/login`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectText(page, `Welcome, ${name}`);
}

async function openTask(page, title) {  // the row's title cell: the row opens the task, its controls do not
  await row(page, title).getByRole("cell", { name: title, exact: true }).click();
  await expectHeading(page, title);
}

async function openMenu(page, item) {  // "More" opens on hover
  await page.getByText("More", { exact: true }).hover();
  await page.getByRole("link", { name: item, exact: true }).click();
}

async function openReports(page) {
  await openMenu(page, "Reports");
  await expectHeading(page, "Reports");
}

async function createTask(page, { email, password, name, title, assignee }) {
  await signIn(page, email, password, name);
  await page.getByRole("link", { name: "New task", exact: true }).click();
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Assignee", { exact: true }).fill(assignee);
  await page.getByRole("button", { name: "Create task" }).click();
  await expectText(page, "Task created");
  await expectText(page, title);
}

const FLOWS = {
  "TT-1": async (page) => {
    await signIn(page);
  },
  "TT-2": async (page) => {
    await page.goto(`${BASE}/login`);
    await page.getByLabel("Email", { exact: true }).fill("alice@example.com");
    await page.getByLabel("Password", { exact: true }).fill("letmein");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectText(page, "Invalid email or password");
  },
  // The Scenario Outline's two Examples rows: each row is its own flow (reset, fresh context).
  "TT-3-1": (page) => createTask(page, { email: "alice@example.com", password: "wonderland", name: "Alice",
    title: "Order new chairs", assignee: "Bob Builder" }),
  "TT-3-2": (page) => createTask(page, { email: "bob@example.com", password: "builder", name: "Bob",
    title: "Fix the coffee machine", assignee: "Alice Liddell" }),
  "TT-4": async (page) => {
    await signIn(page);
    await page.getByLabel("Search tasks").fill("quarterly");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    // In the results swapped in under the form, not the task table below them (which lists it anyway).
    await page.getByRole("listitem").filter({ hasText: "Write the quarterly report" })
      .waitFor({ state: "visible", timeout: EXPECT_MS });
  },
  "TT-5": async (page) => {
    await signIn(page);
    await page.getByRole("button", { name: "Load activity" }).click();
    await expectText(page, "Bob commented on Water the plants");
  },
  "TT-6": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await expectHeading(page, "Notifications");
    await page.getByRole("link", { name: "Tasks", exact: true }).click();
    await expectText(page, "Renew the SSL certificate");
  },
  "TT-10": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "New task", exact: true }).click();
    await page.getByLabel("Title", { exact: true }).fill("Plan the offsite");
    // The suggestions open on keyup: typed keys, not fill().
    await page.getByLabel("Assignee", { exact: true }).pressSequentially("car");
    await page.getByRole("option", { name: "Carol Danvers" }).click();
    const picked = await page.getByLabel("Assignee", { exact: true }).inputValue();
    if (picked !== "Carol Danvers") throw new Error(`Assignee holds "${picked}", expected "Carol Danvers"`);
    await page.getByRole("button", { name: "Create task" }).click();
    await expectText(page, "Task created");
    await row(page, "Plan the offsite").getByRole("cell", { name: "Carol Danvers", exact: true })
      .waitFor({ state: "visible", timeout: EXPECT_MS });
  },
  "TT-11": async (page) => {
    await signIn(page);
    page.once("dialog", (dialog) => dialog.accept());
    await row(page, "Water the plants").getByTitle("Delete").click();
    await expectText(page, "Task deleted");
    await expectGone(row(page, "Water the plants"));
  },
  "TT-12": async (page) => {
    await signIn(page);
    const dismissed = new Promise((resolve) => page.once("dialog", (dialog) => resolve(dialog.dismiss())));
    await row(page, "Book the team dinner").getByTitle("Delete").click();
    await dismissed;
    await expectText(page, "Book the team dinner");
    await expectAbsent(page.getByText("Task deleted"), '"Task deleted"');
  },
  "TT-13": async (page) => {
    await signIn(page);
    await openTask(page, "Renew the SSL certificate");
    page.once("dialog", (dialog) => dialog.accept("Renew the TLS certificate"));
    await page.getByRole("button", { name: "Rename" }).click();
    await expectHeading(page, "Renew the TLS certificate");
  },
  "TT-14": async (page) => {
    await signIn(page);
    await row(page, "Water the plants").getByRole("checkbox").check();
    await row(page, "Book the team dinner").getByRole("checkbox").check();
    await page.getByRole("button", { name: "Mark done" }).click();
    await expectText(page, "2 task(s) marked done");
  },
  "TT-15": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    const profile = section(page, "Profile");
    await profile.getByRole("textbox").nth(0).fill("Alice L.");
    await profile.getByRole("textbox").nth(1).fill("Platform");
    await profile.getByRole("button", { name: "Save" }).click();
    await expectText(page, "Profile saved");
  },
  "TT-16": async (page) => {
    await signIn(page);
    await openMenu(page, "Reports");
    await expectText(page, "4 open tasks");
  },
  "TT-17": async (page) => {
    await signIn(page);
    await page.getByText("More", { exact: true }).hover();
    const [help] = await Promise.all([
      page.context().waitForEvent("page"),
      page.getByRole("link", { name: "Open help" }).click(),
    ]);
    await expectText(help, "Teamtasks help");
    await page.bringToFront();
    await expectText(page, "Welcome, Alice");
  },
  "TT-18": async (page) => {
    await signIn(page);
    await openTask(page, "Write the quarterly report");
    await page.getByLabel("Attachment").setInputFiles(path.join(FILES, "notes.txt"));
    await page.getByRole("button", { name: "Upload" }).click();
    await expectText(page, "Uploaded notes.txt");
  },
  "TT-19": async (page) => {
    await signIn(page);
    await expectText(page, "0 starred");
    await row(page, "Water the plants").getByRole("button", { name: "Star", exact: true }).click();
    await expectText(page, "1 starred");
  },
  "TT-20": async (page) => {
    await signIn(page);
    await openTask(page, "Book the team dinner");
    await expectText(page, "Assigned to Carol Danvers");
    await page.goBack();
    await expectText(page, "Welcome, Alice");
    await page.goForward();
    await expectHeading(page, "Book the team dinner");
  },
  "TT-21": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await expectHeading(page, "Settings");
    await page.reload();
    await expectHeading(page, "Notifications");
    await expectAbsent(page.getByText("Invalid email or password"), '"Invalid email or password"');
  },
  "TT-22": async (page) => {
    await signIn(page);
    await openReports(page);
    await page.getByRole("button", { name: "Export CSV" }).click();
    await expectText(page, "Export ready", EXPORT_MS);
    await expectAbsent(page.getByText("Exporting"), '"Exporting"');
  },
  "TT-23": async (page) => {
    await signIn(page);
    await openMenu(page, "Reports");
    await expectText(page, "4 open tasks");
    await expectAbsent(page.getByRole("button", { name: "Mark done" }), "the Mark done button");
  },
  "TT-24": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "New task", exact: true }).click();
    await page.getByLabel("Title", { exact: true }).fill("Call the landlord");
    await page.getByRole("checkbox", { name: "Urgent" }).check();  // named by the flag image's alt text
    await page.getByRole("button", { name: "Create task" }).click();
    await expectText(page, "Urgent: Call the landlord");
  },
  "TT-25": async (page) => {
    await signIn(page);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    const notifications = section(page, "Notifications");
    await notifications.getByRole("textbox").fill("team@example.com");
    await notifications.getByRole("button", { name: "Save" }).click();
    await expectText(page, "Notifications saved");
  },
  "TT-26": async (page) => {
    await signIn(page);
    await openReports(page);
    await page.getByRole("button", { name: "Export CSV" }).click();
    await expectText(page, "Exporting");
    await expectGone(page.getByText("Exporting"), EXPORT_MS);
    await expectText(page, "Export ready");
  },
};

// The stylesheet host that never answers is cut off (see the top of this file).
harness.main(BASE, FLOWS, (context) => context.route((url) => !APP_HOSTS.has(url.hostname), (route) => route.abort()));
