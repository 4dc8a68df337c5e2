"use strict";
(function () {
  // Data comes from the JSON island, never from markup: repository text stays text.
  var data = JSON.parse(document.getElementById("topo-data").textContent);
  var svg = document.getElementById("topology");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.finding"));
  var code = document.getElementById("filter-code");
  var point = document.getElementById("filter-point");
  var shown = document.getElementById("shown");

  function clearHighlight() {
    svg.classList.remove("highlighting");
    Array.prototype.forEach.call(svg.querySelectorAll(".hl"), function (el) {
      el.classList.remove("hl");
      var path = el.querySelector("path");
      if (path && el.dataset.marker) { path.setAttribute("marker-end", el.dataset.marker); }
    });
    rows.forEach(function (row) { row.classList.remove("selected"); });
  }

  function highlight(findingId) {
    clearHighlight();
    var entry = data.findings[findingId];
    var row = document.getElementById("f-" + findingId);
    if (row) { row.classList.add("selected"); }
    if (!entry) { return; }
    svg.classList.add("highlighting");
    entry.nodes.forEach(function (i) { document.getElementById("n" + i).classList.add("hl"); });
    entry.edges.forEach(function (i) {
      var edge = document.getElementById("e" + i);
      var path = edge.querySelector("path");
      edge.dataset.marker = path.getAttribute("marker-end");
      path.setAttribute("marker-end", "url(#arrow-hl)");
      edge.classList.add("hl");
    });
    Array.prototype.forEach.call(svg.querySelectorAll(".connector"), function (el) {
      if (el.getAttribute("data-finding") === findingId) { el.classList.add("hl"); }
    });
    var first = entry.nodes.length ? document.getElementById("n" + entry.nodes[0]) : null;
    if (first && first.scrollIntoView) { first.scrollIntoView({block: "nearest", inline: "nearest"}); }
  }

  function applyFilters() {
    var severities = Array.prototype.map.call(
      document.querySelectorAll("input[name=severity]:checked"), function (box) { return box.value; });
    var visible = 0;
    rows.forEach(function (row) {
      var keep = severities.indexOf(row.dataset.severity) >= 0 &&
        (!code.value || row.dataset.code === code.value) &&
        (!point.value || row.dataset.point === point.value);
      row.hidden = !keep;
      if (keep) { visible += 1; }
    });
    shown.textContent = visible + " of " + rows.length + " findings shown";
  }

  rows.forEach(function (row) {
    row.addEventListener("click", function () { highlight(row.dataset.finding); });
    row.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { highlight(row.dataset.finding); }
    });
  });
  var form = document.getElementById("filters");
  form.addEventListener("change", applyFilters);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { clearHighlight(); }
  });
  window.topoHighlight = highlight;
  applyFilters();
}());
