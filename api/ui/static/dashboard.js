// Live progress: the element with data-refresh is replaced by the fragment at that URL every few seconds, until the
// fragment comes back without data-refresh (the batch has finished: the page is reloaded for its downloads and
// report). It sits in a live region that stays, so a screen reader hears the new counts. A signed-out session (the
// answer is the sign-in page) or a fragment that is not the progress leaves the page as it is; an error of the
// server or the network is tried again, less and less often. The pages work without this script.
"use strict";
(function () {
  const EVERY_MS = 3000;
  const AT_MOST_MS = 60000;
  function follow(element, delay) {
    const url = element.getAttribute("data-refresh");
    if (!url) return;
    window.setTimeout(async function () {
      let answer;
      try {
        answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      } catch (error) {
        return follow(element, Math.min(delay * 2, AT_MOST_MS));  // the network blinked
      }
      if (answer.status >= 500) return follow(element, Math.min(delay * 2, AT_MOST_MS));
      if (!answer.ok || answer.redirected) return;  // signed out, or the batch is gone
      const holder = document.createElement("div");
      holder.innerHTML = await answer.text();
      const fresh = holder.firstElementChild;
      if (!fresh || fresh.id !== element.id) return;
      element.replaceWith(fresh);
      if (fresh.getAttribute("data-refresh")) follow(fresh, EVERY_MS);
      else window.location.reload();
    }, delay);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh]").forEach(function (element) { follow(element, EVERY_MS); });
  });
})();
