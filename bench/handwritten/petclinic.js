// The 13 flows of examples/petclinic.yaml written by hand with playwright-core, as a baseline for the
// generated cucumber-js suite: one browser, a fresh context per flow, POST /__reset before each flow.
//
//   NODE_PATH=<runtime>/node_modules node bench/handwritten/petclinic.js http://127.0.0.1:8080
//
// Prints one JSON line {"flows": {id: ms}, "total_ms": ...}; exits 1 when a flow fails.
const harness = require("./harness");

const BASE = harness.baseUrl("http://127.0.0.1:8080");

async function expectText(page, text) {
  await page.getByText(text).first().waitFor({ state: "visible", timeout: 5000 });
}

async function expectRow(page, header, expected) {  // <tr><th>City</th><td>Madison</td></tr>
  const actual = (await page.getByRole("row", { name: header }).locator("td").innerText()).trim();
  if (actual !== expected) throw new Error(`${header} shows "${actual}", expected "${expected}"`);
}

async function findOwners(page) {
  await page.goto(`${BASE}/`);
  await page.getByRole("link", { name: "Find owners" }).click();
}

async function search(page, lastName) {
  await findOwners(page);
  await page.getByLabel("Last name", { exact: true }).fill(lastName);
  await page.getByRole("button", { name: "Find Owner" }).click();
}

async function editCity(page, lastName, city) {
  await search(page, lastName);
  await page.getByRole("link", { name: "Edit Owner" }).click();
  await page.getByLabel("City").fill(city);
  await page.getByRole("button", { name: "Update Owner" }).click();
  await expectText(page, "Owner Values Updated");
  await expectRow(page, "City", city);
}

const FLOWS = {
  "OWN-1": async (page) => {
    await search(page, "Franklin");
    await expectText(page, "Owner Information");
    await expectRow(page, "Telephone", "6085551023");
  },
  "OWN-2": async (page) => {
    await search(page, "Davis");
    await expectText(page, "Betty Davis");
    await expectText(page, "Harold Davis");
  },
  "OWN-3": async (page) => {
    await findOwners(page);
    await page.getByRole("button", { name: "Find Owner" }).click();
    await expectText(page, "Jean Coleman");
    await expectText(page, "Peter McTavish");
  },
  "OWN-4": async (page) => {
    await page.goto(`${BASE}/owners/find`);
    await page.getByLabel("Last name", { exact: true }).fill("McTavish");
    await page.getByLabel("Last name", { exact: true }).press("Enter");
    await expectText(page, "2387 S. Fair Way");
  },
  "OWN-5": async (page) => {
    await search(page, "Davis");
    await page.getByRole("link", { name: "Betty Davis" }).click();
    await expectRow(page, "City", "Sun Prairie");
  },
  "OWN-10": async (page) => {
    await findOwners(page);
    await page.getByRole("link", { name: "Add Owner" }).click();
    await page.getByLabel("First Name").fill("Jane");
    await page.getByLabel("Last Name").fill("Doe");
    await page.getByLabel("Address").fill("12 Main Street");
    await page.getByLabel("City").fill("Springfield");
    await page.getByLabel("Telephone").fill("5550100123");
    await page.getByRole("button", { name: "Add Owner" }).click();
    await expectText(page, "New Owner Created");
  },
  "OWN-11": async (page) => {
    await findOwners(page);
    await page.getByRole("link", { name: "Add Owner" }).click();
    await page.getByRole("button", { name: "Add Owner" }).click();
    await expectText(page, "must not be blank");
  },
  // Two data rows, like the Scenario Outline's Examples: each row is its own run (reset, fresh context).
  "OWN-12": [(page) => editCity(page, "Franklin", "Middleton"), (page) => editCity(page, "Coleman", "Verona")],
  "PET-14": async (page) => {
    await search(page, "Rodriquez");
    await page.getByRole("link", { name: "Add New Pet" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Rex");
    await page.getByLabel("Birth Date").fill("2021-04-03");
    await page.getByLabel("Type").selectOption({ label: "dog" });
    await page.getByRole("button", { name: "Add Pet" }).click();
    await expectText(page, "New Pet has been Added");
  },
  "PET-15": async (page) => {
    await search(page, "McTavish");
    await page.getByRole("link", { name: "Add New Pet" }).click();
    await page.getByRole("button", { name: "Add Pet" }).click();
    await expectText(page, "is required");
  },
  "VIS-18": async (page) => {
    await search(page, "Franklin");
    await page.getByRole("link", { name: "Add Visit" }).click();
    await page.getByLabel("Description").fill("Routine checkup");
    await page.getByLabel("Send a reminder").check();
    await page.getByLabel("Notify the owner by email").uncheck();
    await page.getByRole("button", { name: "Add Visit" }).click();
    await expectText(page, "Your visit has been booked");
    await expectText(page, "Routine checkup");
  },
  "VET-20": async (page) => {
    await page.goto(`${BASE}/`);
    await page.getByRole("link", { name: "Veterinarians" }).click();
    await expectText(page, "Helen Leary");
    await expectText(page, "radiology");
  },
  "ERR-21": async (page) => {
    await page.goto(`${BASE}/oups`);
    await expectText(page, "Something happened...");
  },
};

harness.main(BASE, FLOWS);
