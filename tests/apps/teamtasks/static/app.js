// Teamtasks: a single-page app. Routes change with the History API; data comes from the API on another port,
// with the session's bearer token; htmx swaps server-rendered fragments in.
const API = window.TEAMTASKS.api;
// Changes the tests switch on between two runs (tests/apps/teamtasks/changes.py).
const CHANGED = new Set(window.TEAMTASKS.changes || []);
const EMAIL_ID = CHANGED.has("renamed-id") ? "login-email" : "email";
const view = document.getElementById("view");
let flash = "";

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const token = () => sessionStorage.getItem("token");

async function api(path, options = {}) {
  const headers = { Authorization: `Bearer ${token() || ""}`, ...(options.headers || {}) };
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    options = { ...options, body: JSON.stringify(options.json) };
  }
  const answer = await fetch(API + path, { ...options, headers });
  if (answer.status === 204) return null;
  const body = await answer.json();
  if (!answer.ok) throw new Error(body.error || `HTTP ${answer.status}`);
  return body;
}

function go(path, message = "") {
  flash = message;
  history.pushState({}, "", path);
  render();
}

// Links marked data-route change the route without a page load.
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-route]");
  if (!link) return;
  event.preventDefault();
  go(link.getAttribute("href"));
});
window.addEventListener("popstate", () => render());
document.getElementById("sign-out").addEventListener("click", (event) => {
  event.preventDefault();
  sessionStorage.clear();
  go("/login");
});
// htmx requests go to the API with the session's token too.
document.body.addEventListener("htmx:configRequest", (event) => {
  event.detail.headers.Authorization = `Bearer ${token() || ""}`;
});

function show(html) {
  view.innerHTML = (flash ? `<p class="flash">${escape(flash)}</p>` : "") + html;
  flash = "";
  htmx.process(view);
}

const routes = [
  [/^\/login$/, login],
  [/^\/tasks\/new$/, newTask],
  [/^\/tasks\/(\d+)$/, taskDetail],
  [/^\/tasks\/?$/, tasks],
  [/^\/settings$/, settings],
  [/^\/reports$/, reports],
];

async function render() {
  const path = location.pathname;
  if (!token() && path !== "/login") return go("/login");
  document.getElementById("top").hidden = !token();
  const route = routes.find(([pattern]) => pattern.test(path));
  if (!route) return go(token() ? "/tasks" : "/login");
  try {
    await route[1](...path.match(route[0]).slice(1));
  } catch (error) {
    show(`<p class="error">${escape(error.message)}</p>`);
  }
}

function login() {
  show(`<h1>Sign in</h1>
    <form id="login">
      <p><label for="${EMAIL_ID}">Email</label><br><input id="${EMAIL_ID}" type="email" autocomplete="username"></p>
      <p><label for="password">Password</label><br><input id="password" type="password"></p>
      <button type="submit">Sign in</button>
      <p id="login-error" class="error"></p>
    </form>`);
  document.getElementById("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await api("/api/login", { method: "POST", json: {
        email: document.getElementById(EMAIL_ID).value, password: document.getElementById("password").value } });
      sessionStorage.setItem("token", answer.token);
      sessionStorage.setItem("name", answer.name);
      go("/tasks");
    } catch (error) {
      document.getElementById("login-error").textContent = error.message;
    }
  });
}

async function tasks() {
  const list = await api("/api/tasks");
  const rows = list.map((task) => `
    <tr class="task" data-id="${task.id}">
      <td><input type="checkbox" class="pick"></td>
      <td>${task.urgent ? "Urgent: " : ""}${escape(task.title)}</td>
      <td>${escape(task.assignee)}</td>
      <td>${task.done ? "Done" : "Open"}</td>
      <td><button class="icon star" title="${task.starred ? "Unstar" : "Star"}">
            <svg viewBox="0 0 10 10" width="16" height="16"><polygon points="5,0 6,4 10,4 7,6 8,10 5,7 2,10 3,6 0,4 4,4"
            fill="${task.starred ? "gold" : "none"}" stroke="black"/></svg></button>
          <i class="icon icon-trash" title="Delete"></i></td>
    </tr>`).join("");
  show(`<h1>Tasks</h1>
    <p>${CHANGED.has("retitled-welcome") ? "Hello" : "Welcome"}, ${escape(sessionStorage.getItem("name"))}</p>
    <p id="starred">${list.filter((task) => task.starred).length} starred</p>
    <form hx-get="${API}/fragments/search" hx-target="#results">
      <label for="q">Search tasks</label> <input id="q" name="q"> <button>Search</button>
    </form>
    <div id="results"></div>
    <table><thead><tr><th></th><th>Title</th><th>Assignee</th><th>Status</th><th></th></tr></thead>
      <tbody>${rows}</tbody></table>
    <p><button id="mark-done">Mark done</button></p>
    <h2>Activity</h2>
    <button hx-get="${API}/fragments/activity" hx-target="#activity">${CHANGED.has("relabelled-button") ? "Show" : "Load"} activity</button>
    <div id="activity"></div>`);
  for (const row of view.querySelectorAll("tr.task")) {
    const id = row.dataset.id;
    row.addEventListener("click", (event) => {
      if (event.target.closest("input, button, i")) return;  // the row's own controls
      go(`/tasks/${id}`);
    });
    row.querySelector(".star").addEventListener("click", async () => {
      await api(`/api/tasks/${id}`, { method: "PATCH", json: { starred: row.querySelector(".star").title === "Star" } });
      render();
    });
    row.querySelector(".icon-trash").addEventListener("click", () => remove(id, row.children[1].textContent));
  }
  document.getElementById("mark-done").addEventListener("click", async () => {
    const picked = Array.from(view.querySelectorAll("tr.task")).filter((row) => row.querySelector(".pick").checked);
    for (const row of picked) await api(`/api/tasks/${row.dataset.id}`, { method: "PATCH", json: { done: true } });
    flash = `${picked.length} task(s) marked done`;
    render();
  });
}

async function remove(id, title) {
  if (!confirm(`Delete the task "${title}"?`)) return;
  await api(`/api/tasks/${id}`, { method: "DELETE" });
  go("/tasks", "Task deleted");
}

function newTask() {
  show(`<h1>New task</h1>
    <form id="new-task">
      <p><label for="title">Title</label><br><input id="title"></p>
      <p><label for="assignee">Assignee</label><br><input id="assignee" autocomplete="off">
         <ul id="people" class="suggestions" role="listbox"></ul></p>
      <p><label><input type="checkbox" id="urgent"> <img src="/static/flag.svg" alt="Urgent" width="16" height="16"></label></p>
      <button type="submit">Create task</button>
      <p id="task-error" class="error"></p>
    </form>`);
  const assignee = document.getElementById("assignee");
  const people = document.getElementById("people");
  // Suggestions on keyup only: typed keys, not a value set by script.
  assignee.addEventListener("keyup", async () => {
    const names = assignee.value.trim() ? await api(`/api/people?q=${encodeURIComponent(assignee.value)}`) : [];
    people.innerHTML = names.map((name) => `<li role="option">${escape(name)}</li>`).join("");
  });
  people.addEventListener("click", (event) => {
    const option = event.target.closest("li");
    if (!option) return;
    assignee.value = option.textContent;
    people.innerHTML = "";
  });
  document.getElementById("new-task").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/tasks", { method: "POST", json: {
        title: document.getElementById("title").value, assignee: assignee.value,
        urgent: document.getElementById("urgent").checked } });
      go("/tasks", "Task created");
    } catch (error) {
      document.getElementById("task-error").textContent = error.message;
    }
  });
}

async function taskDetail(id) {
  const task = await api(`/api/tasks/${id}`);
  const files = task.attachments.map((name) => `<li>${escape(name)}</li>`).join("");
  show(`<h1>${escape(task.title)}</h1>
    <p>Assigned to ${escape(task.assignee)} · ${task.done ? "Done" : "Open"}</p>
    <p><button id="rename">Rename</button> <button id="delete">Delete</button></p>
    <form id="upload">
      <label for="attachment">Attachment</label> <input id="attachment" type="file"> <button>Upload</button>
    </form>
    <ul id="files">${files}</ul>`);
  document.getElementById("rename").addEventListener("click", async () => {
    const title = prompt("New title", task.title);
    if (!title) return;
    await api(`/api/tasks/${id}`, { method: "PATCH", json: { title } });
    flash = "Task renamed";
    render();
  });
  document.getElementById("delete").addEventListener("click", () => remove(id, task.title));
  document.getElementById("upload").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("attachment").files[0];
    if (!file) return;
    const form = new FormData();
    form.append("file", file);
    await api(`/api/tasks/${id}/attachments`, { method: "POST", body: form });
    flash = `Uploaded ${file.name}`;
    render();
  });
}

function settings() {
  // Inputs named only by the heading above them, and a Save button per section, as many back offices have.
  show(`<h1>Settings</h1>
    <section><h2>Profile</h2><input class="display-name"> <input class="team">
      <button id="save-profile">Save</button></section>
    <section><h2>Notifications</h2><input class="digest-email">
      <button id="save-notifications">Save</button></section>
    <p id="saved"></p>`);
  const save = async (fields, message) => {
    await api("/api/profile", { method: "POST", json: fields });
    document.getElementById("saved").textContent = message;
  };
  document.getElementById("save-profile").addEventListener("click", () => save({
    name: view.querySelector(".display-name").value, team: view.querySelector(".team").value }, "Profile saved"));
  document.getElementById("save-notifications").addEventListener("click", () => save({
    digest: view.querySelector(".digest-email").value }, "Notifications saved"));
}

async function reports() {
  const list = await api("/api/tasks");
  const open = list.filter((task) => !task.done).length;
  show(`<h1>Reports</h1><p>${open} open tasks</p><p>${list.length - open} done tasks</p>
    <p><button id="export">Export CSV</button></p><p id="export-status"></p>`);
  // The export is a job on the server: started, then asked about every half second until it is ready.
  document.getElementById("export").addEventListener("click", async () => {
    const status = document.getElementById("export-status");
    status.textContent = "Exporting…";
    const job = await api("/api/exports", { method: "POST" });
    const poll = async () => {
      const state = await api(`/api/exports/${job.id}`);
      if (state.ready) status.textContent = `Export ready: ${state.rows} tasks`;
      else setTimeout(poll, 500);
    };
    setTimeout(poll, 500);
  });
}

render();
