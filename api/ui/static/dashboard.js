// Live progress: an element with data-refresh is replaced by the fragment at that URL every few seconds, until the
// fragment comes back without data-refresh (the batch has finished). The pages work without it.
"use strict";
(function () {
  const EVERY_MS = 3000;
  function follow(element) {
    const url = element.getAttribute("data-refresh");
    if (!url) return;
    window.setTimeout(async function () {
      try {
        const answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
        if (!answer.ok) return;  // signed out or gone: leave the page as it is
        const holder = document.createElement("div");
        holder.innerHTML = await answer.text();
        const fresh = holder.firstElementChild;
        if (!fresh) return;
        element.replaceWith(fresh);
        if (fresh.getAttribute("data-refresh")) follow(fresh);
        else window.location.reload();  // finished: the downloads and the report are there now
      } catch (error) {
        follow(element);  // the network blinked: try again
      }
    }, EVERY_MS);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh]").forEach(follow);
  });
})();
