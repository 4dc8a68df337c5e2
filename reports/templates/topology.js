"use strict";
(function () {
  // Data comes from the JSON island, never from markup: repository text stays text.
  var data = JSON.parse(document.getElementById("topo-data").textContent);
  var viewport = document.getElementById("viewport");
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.finding"));
  var code = document.getElementById("filter-code");
  var point = document.getElementById("filter-point");
  var shown = document.getElementById("shown");
  var panel = document.getElementById("finding-view");
  var search = document.getElementById("search");
  var results = document.getElementById("search-results");
  var haystacks = data.search.map(function (e) {
    return (e[1] + " " + e[2] + " " + e[3]).toLowerCase();
  });
  var current = data.start;
  var selected = null;
  var boxes = {};                       // view → its viewBox {x, y, w, h}

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function view(name) { return viewport.querySelector(".view[data-view=" + name + "]"); }
  function svgOf(name) { var v = view(name); return v ? v.querySelector("svg") : null; }

  // Labels never clip: a text wider than its box is condensed to fit (the layout already
  // shortens labels to what fits in the page's monospace font; this covers other fonts).
  function fitTexts(root) {
    each(root.querySelectorAll("text.fit"), function (text) {
      var max = Number(text.getAttribute("data-max"));
      if (max && text.getComputedTextLength() > max) {
        text.setAttribute("textLength", String(max));
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    });
  }

  // ---- pan and zoom: the visible SVG's viewBox --------------------------------------------
  function size(svg) {
    return {w: Number(svg.getAttribute("data-width")), h: Number(svg.getAttribute("data-height"))};
  }
  function apply(name) {
    var svg = svgOf(name), b = boxes[name];
    if (svg && b) { svg.setAttribute("viewBox", [b.x, b.y, b.w, b.h].join(" ")); }
  }
  function actual(name) {          // 1 user unit = 1 px, top left
    var svg = svgOf(name);
    if (!svg) { return; }
    var s = size(svg), scale = s.w / Math.max(1, viewport.clientWidth);
    boxes[name] = {x: 0, y: 0, w: s.w, h: viewport.clientHeight * scale};
    apply(name);
  }
  function fit(name) {
    var svg = svgOf(name);
    if (!svg) { return; }
    var s = size(svg), ratio = viewport.clientHeight / Math.max(1, viewport.clientWidth);
    var w = Math.max(s.w, s.h / ratio);
    boxes[name] = {x: (s.w - w) / 2, y: 0, w: w, h: w * ratio};
    apply(name);
  }
  function zoom(factor, cx, cy) {
    var b = boxes[current];
    if (!b) { return; }
    var s = size(svgOf(current));
    var w = Math.min(Math.max(b.w * factor, 120), Math.max(s.w, s.h) * 4);
    var k = w / b.w;
    cx = cx === undefined ? 0.5 : cx;
    cy = cy === undefined ? 0.5 : cy;
    boxes[current] = {x: b.x + (b.w - w) * cx, y: b.y + (b.h - b.h * k) * cy, w: w, h: b.h * k};
    apply(current);
  }
  function pan(dx, dy) {           // in fractions of the visible box
    var b = boxes[current];
    if (!b) { return; }
    b.x += dx * b.w;
    b.y += dy * b.h;
    apply(current);
  }
  function centre(name, element) {
    var svg = svgOf(name), b = boxes[name];
    if (!svg || !b || !element) { return; }
    var r = element.getBBox();
    if (r.x >= b.x && r.y >= b.y && r.x + r.width <= b.x + b.w && r.y + r.height <= b.y + b.h) {
      return;                      // already in view: do not move the picture
    }
    b.x = r.x + r.width / 2 - b.w / 2;
    b.y = r.y + r.height / 2 - b.h / 2;
    apply(name);
  }

  function show(name) {
    if (name === "whole" && !svgOf("whole")) {
      var template = document.getElementById("tpl-whole");
      view("whole").appendChild(template.content.cloneNode(true));
    }
    current = name;
    each(viewport.querySelectorAll(".view"), function (v) { v.hidden = v.dataset.view !== name; });
    each(document.querySelectorAll(".view-btn"), function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.view === name));
    });
    var svg = svgOf(name);
    if (svg) {                     // a few screens at most: the viewport, never the drawing
      var natural = size(svg).h * viewport.clientWidth / Math.max(1, size(svg).w);
      viewport.style.height = Math.max(160, Math.min(window.innerHeight * 0.72, natural)) + "px";
    }
    if (svg && !svg.dataset.ready) {
      svg.dataset.ready = "1";
      fitTexts(svg);
      actual(name);
    }
    if (selected) { highlight(selected); }
  }

  var drag = null;
  viewport.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) { return; }
    drag = {x: event.clientX, y: event.clientY};
    viewport.setPointerCapture(event.pointerId);
  });
  viewport.addEventListener("pointermove", function (event) {
    var b = boxes[current];
    if (!drag || !b) { return; }
    var scale = b.w / Math.max(1, viewport.clientWidth);
    b.x -= (event.clientX - drag.x) * scale;
    b.y -= (event.clientY - drag.y) * scale;
    drag = {x: event.clientX, y: event.clientY};
    apply(current);
  });
  viewport.addEventListener("pointerup", function () { drag = null; });
  viewport.addEventListener("wheel", function (event) {
    // The page scrolls past the graph; the wheel zooms once the graph has focus, or with Ctrl.
    if (!event.ctrlKey && document.activeElement !== viewport) { return; }
    event.preventDefault();
    var r = viewport.getBoundingClientRect();
    zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, (event.clientX - r.left) / r.width,
         (event.clientY - r.top) / r.height);
  }, {passive: false});
  viewport.addEventListener("keydown", function (event) {
    var keys = {"ArrowLeft": [-0.1, 0], "ArrowRight": [0.1, 0], "ArrowUp": [0, -0.1],
                "ArrowDown": [0, 0.1]};
    if (event.target !== viewport) { return; }
    if (keys[event.key]) { pan(keys[event.key][0], keys[event.key][1]); }
    else if (event.key === "+" || event.key === "=") { zoom(1 / 1.25); }
    else if (event.key === "-") { zoom(1.25); }
    else if (event.key === "0") { fit(current); }
    else if (event.key === "1") { actual(current); }
    else { return; }
    event.preventDefault();
  });
  each(document.querySelectorAll("[data-zoom]"), function (button) {
    button.addEventListener("click", function () {
      var how = button.dataset.zoom;
      if (how === "in") { zoom(1 / 1.25); } else if (how === "out") { zoom(1.25); }
      else if (how === "fit") { fit(current); } else { actual(current); }
    });
  });
  each(document.querySelectorAll(".view-btn"), function (button) {
    button.addEventListener("click", function () { show(button.dataset.view); });
  });

  // ---- findings: highlight in the graph, the per-finding view -----------------------------
  function clearHighlight() {
    each(viewport.querySelectorAll("svg.highlighting"), function (svg) {
      svg.classList.remove("highlighting");
    });
    each(viewport.querySelectorAll(".hl"), function (el) {
      el.classList.remove("hl");
      var path = el.querySelector("path");
      if (path && path.dataset.marker) { path.setAttribute("marker-end", path.dataset.marker); }
    });
    rows.forEach(function (row) { row.classList.remove("selected"); });
  }

  function highlight(findingId) {
    clearHighlight();
    var row = document.getElementById("f-" + findingId);
    if (row) { row.classList.add("selected"); }
    var svg = svgOf(current), entry = (data.views[current] || {})[findingId];
    if (!svg || !entry) { return; }
    svg.classList.add("highlighting");
    var first = null;
    entry.nodes.forEach(function (i) {
      var node = svg.querySelector(".node[data-i='" + i + "']");
      node.classList.add("hl");
      first = first || node;
    });
    entry.edges.forEach(function (i) {
      var edge = svg.querySelector(".edge[data-i='" + i + "']");
      edge.querySelector("path").setAttribute("marker-end", "url(#arrow-" + current + "-hl)");
      edge.classList.add("hl");
    });
    each(svg.querySelectorAll(".connector"), function (el) {
      if (el.getAttribute("data-finding") === findingId) { el.classList.add("hl"); }
    });
    if (first) { centre(current, first); }
  }

  function select(findingId) {
    var template = document.getElementById("tpl-finding-" + findingId);
    if (!template) { return; }
    selected = findingId;
    panel.replaceChildren(template.content.cloneNode(true));
    panel.dataset.finding = findingId;
    fitTexts(panel);
    highlight(findingId);
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
    row.addEventListener("click", function () { select(row.dataset.finding); });
    row.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { select(row.dataset.finding); }
    });
  });
  each(document.querySelectorAll("a.finding-link"), function (link) {
    link.addEventListener("click", function () { select(link.dataset.finding); });
  });
  // Enter on a node of the graph selects the first finding that runs through it.
  viewport.addEventListener("keydown", function (event) {
    var node = event.target.closest && event.target.closest(".node");
    if (event.key !== "Enter" || !node) { return; }
    var index = Number(node.dataset.i), entries = data.views[current] || {};
    var hit = rows.filter(function (row) {
      var entry = entries[row.dataset.finding];
      return entry && entry.nodes.indexOf(index) >= 0;
    })[0];
    if (hit) { select(hit.dataset.finding); hit.scrollIntoView({block: "center"}); }
  });
  var form = document.getElementById("filters");
  form.addEventListener("change", applyFilters);
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  // ---- search: files, symbols, tool names, code -------------------------------------------
  function found(entry) {
    each(document.querySelectorAll(".found"), function (el) { el.classList.remove("found"); });
    var target = null;
    if (entry[4] === "findings" || entry[4] === "whole") {
      show(entry[4]);
      target = svgOf(entry[4]).querySelector(".node[data-i='" + entry[5] + "']");
      centre(entry[4], target);
      viewport.scrollIntoView({block: "nearest"});
    } else if (entry[4] === "tool") {
      target = document.getElementById("tool-" + entry[5]);
    } else {
      select(entry[5]);
      target = document.getElementById("f-" + entry[5]);
    }
    if (target) {
      target.classList.add("found");
      if (entry[4] === "tool" || entry[4] === "finding") {
        target.scrollIntoView({block: "center"});
      }
    }
  }

  function runSearch() {
    var query = search.value.trim().toLowerCase();
    results.replaceChildren();
    results.hidden = query.length < 2;
    if (results.hidden) { return; }
    var hits = data.search.filter(function (e, i) { return haystacks[i].indexOf(query) >= 0; });
    hits.sort(function (a, b) {         // exact names first, then tools, findings, nodes
      var rank = {"tool": 0, "finding": 1, "node": 2};
      var ea = a[1].toLowerCase() === query ? 0 : 1, eb = b[1].toLowerCase() === query ? 0 : 1;
      return ea - eb || rank[a[0]] - rank[b[0]];
    });
    hits.slice(0, 40).forEach(function (entry) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "hit hit-" + entry[0];
      button.dataset.kind = entry[0];
      button.textContent = entry[0] + " · " + entry[1] + " — " + entry[2];
      button.addEventListener("click", function () { found(entry); });
      item.appendChild(button);
      results.appendChild(item);
    });
    var more = document.createElement("li");
    more.className = "note";
    more.textContent = hits.length ? hits.length + " matches" +
      (hits.length > 40 ? " (first 40 shown)" : "") : "no match";
    results.appendChild(more);
  }
  search.addEventListener("input", runSearch);
  search.addEventListener("keydown", function (event) {
    var first = results.querySelector("button.hit");
    if (event.key === "Enter" && first) { event.preventDefault(); first.click(); }
    if (event.key === "ArrowDown" && first) { event.preventDefault(); first.focus(); }
  });
  results.addEventListener("keydown", function (event) {
    var item = event.target.closest("li");
    var next = event.key === "ArrowDown" ? item && item.nextElementSibling :
      event.key === "ArrowUp" ? item && item.previousElementSibling : null;
    if (next && next.querySelector("button")) {
      event.preventDefault();
      next.querySelector("button").focus();
    }
  });

  // ---- sortable tables: a button in each header; numbers sort as numbers ------------------
  each(document.querySelectorAll("table.sortable"), function (table) {
    each(table.querySelectorAll("thead th"), function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent;
      th.replaceChildren(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        each(table.querySelectorAll("thead th"), function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var sorted = Array.prototype.slice.call(body.rows).map(function (row, i) {
          var cell = row.cells[column];
          var key = cell ? (cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim()) : "";
          return {row: row, key: key, i: i};
        });
        var numeric = sorted.every(function (r) { return r.key !== "" && !isNaN(Number(r.key)); });
        sorted.sort(function (a, b) {
          var c = numeric ? Number(a.key) - Number(b.key) : a.key.localeCompare(b.key);
          return (ascending ? c : -c) || a.i - b.i;
        });
        sorted.forEach(function (r) { body.appendChild(r.row); });
      });
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { clearHighlight(); selected = null; }
  });
  window.topoSelect = select;
  window.topoHighlight = highlight;
  window.topoShow = show;
  show(current);
  applyFilters();
}());
