// The reviewer console's only script (served from /console/static/console.js): keeps the
// inbox counts current without a reload. Everything works without it.
(function () {
  'use strict';
  var summary = document.getElementById('summary');
  if (!summary || !window.fetch) return;
  var url = '/console/counts?workspace=' + encodeURIComponent(summary.dataset.workspace);
  function refresh() {
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (counts) {
        if (!counts) return;
        document.querySelectorAll('[data-count]').forEach(function (el) {
          var key = el.dataset.count;
          var value = key === 'tasks' ? counts.tasks : counts.statuses[key];
          if (value !== undefined && el.textContent !== value) el.textContent = value;
        });
      })
      .catch(function () { /* offline for a moment: keep the last counts */ });
  }
  window.setInterval(refresh, 15000);
  document.addEventListener('visibilitychange', function () {
    if (!document.hidden) refresh();
  });
})();
