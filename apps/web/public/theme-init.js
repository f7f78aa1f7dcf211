// Runs synchronously in <head> so the saved theme applies before first paint (no flash).
(function () {
  var theme = 'light';
  try {
    var saved = window.localStorage.getItem('theme');
    if (saved === 'dark' || saved === 'light') theme = saved;
  } catch {
    // Storage can be blocked (privacy mode); fall back to the default.
  }
  document.documentElement.dataset.theme = theme;
})();
