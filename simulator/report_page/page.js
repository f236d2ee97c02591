// SPDX-License-Identifier: MIT
// The report page's script (simulator/report_page/page.js): reads the report's JSON from
// #cusim-report and draws every table and SVG picture from it. No network, no library.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const report = JSON.parse(document.getElementById("cusim-report").textContent);
  const kernels = Array.isArray(report.kernels) ? report.kernels : [];
  const device = report.device || {};
  const warpSize = device.warp_size || 32;
  // Warps' colours: the pictures colour each lane by its warp.
  const warpColours = ["#1f77b4", "#d95f02", "#2ca02c", "#9467bd", "#8c564b", "#e7298a", "#17becf", "#7f7f7f"];
  const warpColour = (w) => warpColours[((w % warpColours.length) + warpColours.length) % warpColours.length];

  // ---- small DOM helpers --------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null) continue;
      if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return node;
  }
  function sv(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, v);
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return node;
  }
  function svgRoot(width, height, label) {
    return sv("svg", {viewBox: `0 0 ${width} ${height}`, width: width, height: height, role: "img",
                      "aria-label": label, class: "picture"}, sv("title", {}, label));
  }
  const text = (x, y, s, attrs) => sv("text", Object.assign({x: x, y: y}, attrs || {}), s);
  const fmt = (v, digits) => {
    if (v === null || v === undefined || (typeof v === "number" && !isFinite(v))) return "–";
    if (typeof v !== "number") return String(v);
    if (Number.isInteger(v) && digits === undefined) return v.toLocaleString("en-US");
    return v.toLocaleString("en-US", {maximumFractionDigits: digits === undefined ? 2 : digits,
                                      minimumFractionDigits: digits === undefined ? 0 : Math.min(digits, 1)});
  };
  const ratio = (a, b) => (typeof a === "number" && typeof b === "number" && b > 0 ? a / b : null);
  const dims = (d) => (Array.isArray(d) ? `(${d.join(", ")})` : "–");
  const product = (d) => (Array.isArray(d) ? d.reduce((a, b) => a * b, 1) : 0);
  const baseName = (f) => (typeof f === "string" ? f.split("/").pop() : "?");
  const slug = (s) => String(s).replace(/[^A-Za-z0-9_-]/g, "_");
  const metric = (k, name) => (k.metrics && name in k.metrics ? k.metrics[name] : null);
  const nsight = (name) => el("code", {class: "metric"}, name);

  // ---- the model the pictures use (the counts themselves come from the JSON) ----------------
  // A global request's 32-byte sectors: the distinct address/32 of its active lanes' bytes.
  function sectorsOf(example) {
    const base = example.base_mod_32 !== undefined ? example.base_mod_32 : (example.base_mod_128 || 0);
    const bytes = example.bytes || 4;
    const map = new Map();  // sector -> lanes
    for (const l of example.lanes || []) {
      const first = Math.floor((base + l.offset) / 32), last = Math.floor((base + l.offset + bytes - 1) / 32);
      for (let s = first; s <= last; ++s) {
        if (!map.has(s)) map.set(s, []);
        map.get(s).push(l);
      }
    }
    return {base: base, bytes: bytes, sectors: [...map.keys()].sort((a, b) => a - b), map: map};
  }
  // A shared request's banks (4 bytes each, 32 of them). An access of 8 or 16 bytes is served in
  // 2 or 4 phases of 16 or 8 lanes; within a phase, lanes reading the same 4-byte word share it
  // (broadcast) and distinct words in one bank are served one after the other (a conflict).
  function banksOf(example) {
    const bytes = example.bytes || 4;
    const phases = bytes > 4 ? bytes / 4 : 1;
    const lanesPerPhase = Math.max(1, Math.floor(warpSize / phases));
    const banks = [];
    for (let b = 0; b < 32; ++b) banks.push({hits: [], words: new Set(), worstPhase: 0});
    const perPhase = [];  // phase -> bank -> Set(words)
    for (let p = 0; p < phases; ++p) perPhase.push(Array.from({length: 32}, () => new Set()));
    for (const l of example.lanes || []) {
      const phase = Math.min(phases - 1, Math.floor(l.lane / lanesPerPhase));
      const words = Math.max(1, Math.ceil(bytes / 4));
      for (let w = 0; w < words; ++w) {
        const word = Math.floor(l.offset / 4) + w;
        const bank = ((word % 32) + 32) % 32;
        banks[bank].hits.push({lane: l.lane, word: word, phase: phase});
        banks[bank].words.add(word);
        perPhase[phase][bank].add(word);
      }
    }
    let wavefronts = 0;
    for (let p = 0; p < phases; ++p) {
      let worst = 0;
      for (let b = 0; b < 32; ++b) {
        worst = Math.max(worst, perPhase[p][b].size);
        banks[b].worstPhase = Math.max(banks[b].worstPhase, perPhase[p][b].size);
      }
      wavefronts += worst;
    }
    return {banks: banks, wavefronts: wavefronts, phases: phases};
  }
  const examplesOf = (site) => (Array.isArray(site.examples) && site.examples.length ? site.examples
                                : site.example ? [site.example] : []);

  // ---- per-site figures ----------------------------------------------------------------------
  function siteFigures(site) {
    const req = site.requests || 0;
    const bytes = (site.example && site.example.bytes) || 4;
    const lanes = typeof site.active_lanes_mean === "number" ? site.active_lanes_mean : warpSize;
    const f = {req: req, lanes: lanes};
    if (site.space === "shared") {
      f.wavefrontsPerReq = ratio(site.wavefronts, req);
      f.conflictsPerReq = ratio(site.bank_conflicts, req);
      f.ideal = bytes > 4 ? bytes / 4 : 1;
      f.bad = (site.bank_conflicts || 0) > 0;
    } else {
      f.sectorsPerReq = ratio(site.sectors, req);
      // The sectors of a coalesced request: the active lanes' bytes, 32 to a sector (lanes sharing an
      // element, a broadcast, need fewer).
      f.ideal = Math.max(1, Math.ceil((Math.min(lanes, warpSize) * bytes) / 32));
      f.bad = f.sectorsPerReq !== null && f.sectorsPerReq > f.ideal * 1.01 + 0.0001;
    }
    return f;
  }
  function siteChip(k, site, index) {
    const f = siteFigures(site);
    const what = `${site.space} ${site.kind}`;
    let figure;
    if (site.space === "shared") {
      figure = `${fmt(f.wavefrontsPerReq, 2)} wavefronts/req, ${fmt(site.bank_conflicts)} conflicts`;
    } else {
      figure = `${fmt(f.sectorsPerReq, 2)} sectors/req`;
    }
    const lanes = f.lanes < warpSize - 0.005 ? `, ${fmt(f.lanes, 2)} of ${warpSize} lanes` : "";
    return el("a", {class: "chip " + (f.bad ? "bad" : "good"), href: `#site-${slug(k.name)}-${index}`,
                    title: `${fmt(site.requests)} requests; click for the pictures`},
              el("b", {}, what), " ", figure + lanes);
  }

  // ---- pictures ------------------------------------------------------------------------------
  // Lanes above, the memory they touch below: each lane's line goes to its element; 32-byte
  // sectors are the boxes (grey gaps: sectors nobody touched are left out).
  function globalPicture(site, examples) {
    const each = examples.map((ex) => sectorsOf(ex));
    const bytes = each[0].bytes;
    const all = [...new Set(each.flatMap((s) => s.sectors))].sort((a, b) => a - b);
    const cellsPerSector = Math.max(1, Math.floor(32 / bytes));
    const cellW = Math.max(4, Math.min(24, Math.floor(1000 / Math.max(1, all.length * cellsPerSector))));
    const sectorW = cellW * cellsPerSector, gap = 14;
    let x = 10;
    const sectorX = new Map();
    for (let i = 0; i < all.length; ++i) {
      if (i > 0) x += all[i] === all[i - 1] + 1 ? 2 : gap;
      sectorX.set(all[i], x);
      x += sectorW;
    }
    const laneW = 30, rowH = 30;
    const rowTextX = 10 + warpSize * laneW + 10;  // each warp's words, right of its lanes
    const width = Math.max(x + 10, rowTextX + (examples.length > 1 ? 260 : 0));
    const memY = 30 + examples.length * rowH + 90;
    const height = memY + 70;
    const root = svgRoot(width, height, `global ${site.kind} at line ${site.line}: lanes to elements and sectors`);
    const laneX = (lane) => 10 + lane * laneW + laneW / 2;
    const cellOf = (s, l) => {
      const addr = s.base + l.offset;
      return sectorX.get(Math.floor(addr / 32)) + (Math.floor((addr % 32) / bytes) + 0.5) * cellW;
    };
    // lines first, under the boxes
    examples.forEach((ex, r) => {
      for (const l of ex.lanes || [])
        root.appendChild(sv("line", {x1: laneX(l.lane), y1: 52 + r * rowH, x2: cellOf(each[r], l), y2: memY,
                                     stroke: warpColour(ex.warp || 0), "stroke-opacity": 0.55, "stroke-width": 1.2}));
    });
    const captions = [];
    const owner = new Map();  // element's absolute index -> the first warp drawn that touched it
    examples.forEach((ex, r) => {
      const colour = warpColour(ex.warp || 0);
      const active = new Set((ex.lanes || []).map((l) => l.lane));
      for (let lane = 0; lane < warpSize; ++lane) {
        const on = active.has(lane);
        root.appendChild(sv("rect", {x: 10 + lane * laneW + 2, y: 30 + r * rowH, width: laneW - 4, height: 22, rx: 3,
                                     fill: on ? colour : "#fff", stroke: on ? colour : "#bbb", class: "lane"}));
        root.appendChild(text(laneX(lane), 45 + r * rowH, lane, {"text-anchor": "middle", class: on ? "lane-label" : "lane-label off"}));
      }
      for (const l of ex.lanes || []) {
        const element = Math.floor((each[r].base + l.offset) / bytes);
        if (!owner.has(element)) owner.set(element, ex.warp || 0);
      }
      const sectors = `${each[r].sectors.length} sector${each[r].sectors.length === 1 ? "" : "s"}`;
      captions.push(`warp ${ex.warp} of block ${dims(ex.block)}: ${active.size} active lanes, ${sectors}`);
      if (examples.length > 1)
        root.appendChild(text(rowTextX, 45 + r * rowH, `warp ${ex.warp}: ${active.size} lanes, ${sectors}`,
                              {class: "caption", style: `fill: ${colour}`}));
    });
    const blocks = [...new Set(examples.map((ex) => dims(ex.block)))];
    root.appendChild(text(10, 20, examples.length > 1 ? `${examples.length} warps of block${blocks.length > 1 ? "s" : ""} ` +
                                                        `${blocks.join(", ")}, a row each, coloured by warp` : captions[0],
                          {class: "caption"}));
    // Each sector's first element, as the kernel indexes the allocation (where the boxes have room).
    const base = each[0].base;
    let lastLabelEnd = -Infinity;
    for (const sec of all) {
      const sx = sectorX.get(sec);
      root.appendChild(sv("rect", {x: sx, y: memY, width: sectorW, height: 34, class: "sector"}));
      const first = Math.floor((sec * 32 - base) / bytes);
      const label = `[${first < 0 ? 0 : first}]`;
      if (sx >= lastLabelEnd + 4) {
        root.appendChild(text(sx, memY - 6, label, {class: "element-label"}));
        lastLabelEnd = sx + label.length * 6.5;
      }
      for (let c = 0; c < cellsPerSector; ++c) {
        const element = Math.floor((sec * 32) / bytes) + c;
        const used = owner.has(element);
        root.appendChild(sv("rect", {x: sx + c * cellW, y: memY + 4, width: cellW, height: 26, class: used ? "cell used" : "cell",
                                     fill: used && examples.length > 1 ? warpColour(owner.get(element)) : null}));
      }
    }
    root.appendChild(text(10, memY + 56, `${all.length} sector${all.length === 1 ? "" : "s"} of 32 bytes ` +
                          (examples.length > 1 ? "for these requests together " : "for this request ") +
                          `(${bytes}-byte elements, ${cellsPerSector} per sector; filled: an element a lane reads or writes; [i]: the sector's first element)`,
                          {class: "caption"}));
    return root;
  }

  // The 32 banks as columns; each lane that hits a bank is a chip in its column. A red column has
  // distinct words in one phase: the hardware serves them one after the other (a bank conflict).
  function bankPicture(site, example) {
    const b = banksOf(example);
    const colW = 34, chipH = 14;
    const tallest = Math.max(1, ...b.banks.map((x) => x.hits.length));
    const shown = Math.min(tallest, 32);
    const height = 70 + shown * chipH + (b.banks.some((x) => x.worstPhase > 1 || x.hits.length > shown) ? 40 : 10);
    const width = 32 * colW + 20;
    const root = svgRoot(width, height, `shared ${site.kind} at line ${site.line}: lanes per bank`);
    const colour = warpColour(example.warp || 0);
    root.appendChild(text(10, 16, `warp ${example.warp} of block ${dims(example.block)}: ${b.wavefronts} wavefront${b.wavefronts === 1 ? "" : "s"}` +
                          (b.phases > 1 ? ` (${example.bytes}-byte accesses: ${b.phases} phases of ${warpSize / b.phases} lanes)` : ""),
                          {class: "caption"}));
    for (let bank = 0; bank < 32; ++bank) {
      const x = 10 + bank * colW;
      const info = b.banks[bank];
      const conflict = info.worstPhase > 1;
      root.appendChild(sv("rect", {x: x + 1, y: 44, width: colW - 2, height: shown * chipH + 6,
                                   class: conflict ? "bank conflict" : info.hits.length ? "bank used" : "bank"}));
      root.appendChild(text(x + colW / 2, 38, bank, {"text-anchor": "middle", class: "bank-label"}));
      const hits = info.hits.slice(0, shown);
      hits.forEach((h, i) => {
        const shared = info.hits.filter((o) => o.word === h.word && o.phase === h.phase).length > 1;
        root.appendChild(sv("rect", {x: x + 3, y: 47 + i * chipH, width: colW - 6, height: chipH - 2, rx: 2,
                                     fill: colour, "fill-opacity": shared ? 0.45 : 0.9},
                            sv("title", {}, `lane ${h.lane}: word ${h.word}${shared ? " (shared with other lanes: broadcast)" : ""}`)));
        root.appendChild(text(x + colW / 2, 47 + i * chipH + 10, h.lane, {"text-anchor": "middle", class: "chip-label"}));
      });
      if (info.hits.length > shown) {
        root.appendChild(text(x + colW / 2, 47 + shown * chipH + 14, `+${info.hits.length - shown}`, {"text-anchor": "middle", class: "caption"}));
      }
      if (conflict) {
        root.appendChild(text(x + colW / 2, 47 + shown * chipH + 28, `${info.worstPhase}-way`, {"text-anchor": "middle", class: "conflict-label"}));
      }
    }
    return root;
  }

  // Sectors (global) or wavefronts (shared) per request: this site's mean against the fewest possible.
  function perRequestBars(k) {
    const sites = k.sites || [];
    if (!sites.length) return null;
    const rows = sites.map((site, i) => {
      const f = siteFigures(site);
      const value = site.space === "shared" ? f.wavefrontsPerReq : f.sectorsPerReq;
      return {site: site, i: i, value: value || 0, ideal: f.ideal, bad: f.bad,
              unit: site.space === "shared" ? "wavefronts" : "sectors"};
    });
    const max = Math.max(4, ...rows.map((r) => Math.max(r.value, r.ideal)));
    const rowH = 26, labelW = 210, barW = 560;
    const root = svgRoot(labelW + barW + 160, rows.length * rowH + 30, `${k.name}: sectors or wavefronts per request, each site`);
    rows.forEach((r, j) => {
      const y = 10 + j * rowH;
      root.appendChild(text(labelW - 8, y + 15, `line ${r.site.line} ${r.site.space} ${r.site.kind}`, {"text-anchor": "end", class: "bar-label"}));
      root.appendChild(sv("rect", {x: labelW, y: y + 2, width: Math.max(1, (r.value / max) * barW), height: rowH - 8,
                                   class: r.bad ? "bar bad" : "bar good"}));
      const ix = labelW + (r.ideal / max) * barW;
      root.appendChild(sv("line", {x1: ix, y1: y, x2: ix, y2: y + rowH - 4, class: "ideal"},
                          sv("title", {}, `${r.ideal} ${r.unit} per request when the lanes access consecutive elements`)));
      root.appendChild(text(labelW + (r.value / max) * barW + 6, y + 15, `${fmt(r.value, 2)} ${r.unit}/req`, {class: "bar-value"}));
    });
    root.appendChild(text(labelW, rows.length * rowH + 24, "black tick: what a coalesced (global) or conflict-free (shared) request needs", {class: "caption"}));
    return root;
  }

  // The grid as blocks (block (0,0) marked), and the block as threads coloured by warp, x fastest
  // as in the linear index. A one-dimensional block is drawn a warp to a row.
  function layoutPicture(k) {
    const grid = k.grid || [1, 1, 1], block = k.block || [1, 1, 1];
    const threads = product(block);
    const oneD = block[1] === 1 && block[2] === 1;
    // the block's drawing: columns x rows of threads, and each drawn cell's (x, y)
    const cols = oneD ? Math.min(block[0], warpSize) : Math.min(block[0], 64);
    const rows = oneD ? Math.min(Math.ceil(block[0] / warpSize), 32)
                      : Math.min(block[1], Math.max(1, Math.floor(2048 / cols)), 32);
    const tw = Math.max(6, Math.min(18, Math.floor(640 / cols))), th = Math.max(6, Math.min(18, Math.floor(320 / rows)));
    const gx = Math.min(grid[0], 16), gy = Math.min(grid[1], 16);
    const cell = Math.max(6, Math.min(16, Math.floor(200 / Math.max(gx, gy))));
    const ox = Math.max(240, 30 + gx * cell);
    const width = ox + Math.max(cols * tw, 440) + 20;
    const height = 60 + Math.max(gy * cell, rows * th) + 10;
    const root = svgRoot(width, height, `${k.name}: grid ${dims(grid)} of blocks ${dims(block)}`);
    root.appendChild(text(10, 16, `grid ${dims(grid)}: ${fmt(product(grid))} blocks`, {class: "caption"}));
    if (grid[0] > gx || grid[1] > gy || grid[2] > 1)
      root.appendChild(text(10, 32, `(the first ${gx} × ${gy} drawn)`, {class: "caption"}));
    for (let y = 0; y < gy; ++y)
      for (let x = 0; x < gx; ++x)
        root.appendChild(sv("rect", {x: 10 + x * cell, y: 44 + y * cell, width: cell - 1, height: cell - 1,
                                     class: x === 0 && y === 0 ? "block first" : "block"},
                            sv("title", {}, `block (${x}, ${y}, 0)`)));
    root.appendChild(text(ox, 16, `block ${dims(block)}: ${fmt(threads)} threads in ${Math.ceil(threads / warpSize)} warps; ` +
                          "colour = warp", {class: "caption"}));
    const partial = oneD ? block[0] > cols * rows : block[0] > cols || block[1] > rows || block[2] > 1;
    root.appendChild(text(ox, 32, oneD ? `one row per warp (threadIdx.x ${0}–${Math.min(block[0], cols * rows) - 1})` +
                                         (partial ? ", first 32 warps" : "")
                                       : `threadIdx.x across, threadIdx.y down` + (partial ? " (part drawn: z = 0)" : ""),
                          {class: "caption"}));
    for (let r = 0; r < rows; ++r)
      for (let c = 0; c < cols; ++c) {
        const x = oneD ? r * warpSize + c : c, y = oneD ? 0 : r;
        if (x >= block[0]) continue;
        const linear = y * block[0] + x;
        const w = Math.floor(linear / warpSize);
        root.appendChild(sv("rect", {x: ox + c * tw, y: 44 + r * th, width: tw - 1, height: th - 1, fill: warpColour(w)},
                            sv("title", {}, `thread (${x}, ${y}, 0): warp ${w}, lane ${linear % warpSize}`)));
      }
    return root;
  }

  // Blocks per multiprocessor each resource allows; the shortest bar is the limiter.
  function occupancyPicture(k) {
    const m = k.metrics || {};
    const occ = k.occupancy || {};
    const rows = [
      ["threads (warps)", m["launch__occupancy_limit_warps"], "launch__occupancy_limit_warps", "threads"],
      ["blocks", m["launch__occupancy_limit_blocks"], "launch__occupancy_limit_blocks", "blocks"],
      ["shared memory", m["launch__occupancy_limit_shared_mem"], "launch__occupancy_limit_shared_mem", "shared memory"],
      ["registers", m["launch__occupancy_limit_registers"], "launch__occupancy_limit_registers", "registers"],
    ];
    const known = rows.filter((r) => typeof r[1] === "number");
    const max = Math.max(1, ...known.map((r) => r[1]));
    const rowH = 28, labelW = 150, barW = 460;
    const root = svgRoot(labelW + barW + 250, rows.length * rowH + 40, `${k.name}: occupancy limiters`);
    rows.forEach((r, j) => {
      const y = 8 + j * rowH;
      const limiter = occ.limiter === r[3];
      root.appendChild(text(labelW - 8, y + 16, r[0], {"text-anchor": "end", class: limiter ? "bar-label limiter" : "bar-label"}));
      if (typeof r[1] === "number") {
        root.appendChild(sv("rect", {x: labelW, y: y + 3, width: Math.max(2, (r[1] / max) * barW), height: rowH - 10,
                                     class: limiter ? "bar bad" : "bar neutral"}, sv("title", {}, r[2])));
        root.appendChild(text(labelW + (r[1] / max) * barW + 6, y + 16,
                              `${fmt(r[1])} block${r[1] === 1 ? "" : "s"}/SM${limiter ? "  ← limiter" : ""}`, {class: "bar-value"}));
      } else {
        root.appendChild(sv("rect", {x: labelW, y: y + 3, width: barW, height: rowH - 10, class: "bar unknown"}));
        root.appendChild(text(labelW + 8, y + 16, r[3] === "registers" ? "unknown on a CPU: no compiled register count"
                                                                      : "no limit", {class: "bar-value"}));
      }
    });
    root.appendChild(text(labelW, rows.length * rowH + 30,
                          `theoretical occupancy ${fmt(occ.theoretical_pct, 1)}%: ${fmt(occ.active_blocks_per_multiprocessor)} blocks, ` +
                          `${fmt(occ.active_warps_per_multiprocessor)} warps per SM`, {class: "caption"}));
    return root;
  }

  // A divergent site: the mean share of the warp's 32 lanes that run it.
  function divergencePicture(k) {
    const list = k.divergence || [];
    if (!list.length) return null;
    const rowH = 24, labelW = 180, cellW = 16;
    const root = svgRoot(labelW + warpSize * cellW + 420, list.length * rowH + 16, `${k.name}: sites run by part of a warp`);
    list.forEach((d, j) => {
      const y = 6 + j * rowH;
      root.appendChild(text(labelW - 8, y + 14, `${baseName(d.file)}:${d.line}`, {"text-anchor": "end", class: "bar-label"}));
      const on = Math.round(d.active_lanes_mean || 0);
      for (let lane = 0; lane < warpSize; ++lane)
        root.appendChild(sv("rect", {x: labelW + lane * cellW, y: y + 2, width: cellW - 2, height: rowH - 8,
                                     class: lane < on ? "lane-on" : "lane-off"}));
      root.appendChild(text(labelW + warpSize * cellW + 8, y + 14,
                            `${fmt(d.active_lanes_mean, 2)} lanes on average, ${fmt(d.split_requests)} split instructions`, {class: "bar-value"}));
    });
    return root;
  }

  // ---- tables --------------------------------------------------------------------------------
  function headlineTable(k) {
    const m = k.metrics || {};
    const row = (label, name, value, plain) =>
      el("tr", {}, el("th", {scope: "row"}, label), el("td", {}, nsight(name)), el("td", {class: "num"}, value), el("td", {}, plain));
    const perReq = (s, r) => fmt(ratio(m[s], m[r]), 2);
    const rows = [];
    const any = (...names) => names.some((n) => typeof m[n] === "number" && m[n] !== 0);
    const gl = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", gls = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    const gs = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", gss = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
    // A kind of access the kernel never made is left out (its row would be all zeros).
    if (any(gl, gls)) {
      rows.push(row("global load requests", gl, fmt(m[gl]), "warp instructions that load from global memory"));
      rows.push(row("global load sectors", gls, fmt(m[gls]),
                    `32-byte pieces those loads fetched: ${perReq(gls, gl)} per request (4 when 32 lanes read 32 consecutive 4-byte words)`));
    }
    if (any(gs, gss)) {
      rows.push(row("global store requests", gs, fmt(m[gs]), "warp instructions that store to global memory"));
      rows.push(row("global store sectors", gss, fmt(m[gss]), `${perReq(gss, gs)} sectors per request`));
    }
    const sl = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", sc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    const ss = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", scs = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
    const il = "smsp__sass_inst_executed_op_shared_ld.sum", is = "smsp__sass_inst_executed_op_shared_st.sum";
    if (any(sl, sc, il)) {
      rows.push(row("shared load wavefronts", sl, fmt(m[sl]),
                    `passes through the 32 banks for shared loads (${fmt(m[il])} instructions: ${perReq(sl, il)} each; 1 is ideal)`));
      rows.push(row("shared load bank conflicts", sc, fmt(m[sc]), "extra passes because lanes hit different words in the same bank"));
    }
    if (any(ss, scs, is)) {
      rows.push(row("shared store wavefronts", ss, fmt(m[ss]), `${fmt(m[is])} instructions: ${perReq(ss, is)} each`));
      rows.push(row("shared store bank conflicts", scs, fmt(m[scs]), "extra passes for shared stores"));
    }
    if (!rows.length) rows.push(el("tr", {}, el("td", {colspan: 4}, "no global or shared memory access")));
    rows.push(row("threads per warp instruction", "smsp__thread_inst_executed_per_inst_executed.ratio",
                  fmt(m["smsp__thread_inst_executed_per_inst_executed.ratio"], 2),
                  `active lanes of an average warp instruction (${warpSize} means no divergence)`));
    rows.push(row("theoretical occupancy", "sm__maximum_warps_per_active_cycle_pct", fmt(m["sm__maximum_warps_per_active_cycle_pct"], 1) + "%",
                  `warps a multiprocessor can hold for this launch, of its ${fmt((device.max_threads_per_multiprocessor || 2048) / warpSize)}` +
                  (k.occupancy && k.occupancy.limiter ? `; limited by ${k.occupancy.limiter}` : "")));
    return el("table", {class: "figures"},
              el("thead", {}, el("tr", {}, el("th", {}, "figure"), el("th", {}, "Nsight Compute metric"), el("th", {}, "value"),
                                 el("th", {}, "what it means"))),
              el("tbody", {}, rows));
  }

  function sourceTable(k) {
    const sites = k.sites || [];
    const src = k.source;
    const byLine = new Map();
    sites.forEach((s, i) => {
      if (!src || s.file !== src.file) return;
      if (!byLine.has(s.line)) byLine.set(s.line, []);
      byLine.get(s.line).push([s, i]);
    });
    const divergent = new Map();
    for (const d of k.divergence || []) if (src && d.file === src.file) divergent.set(d.line, d);
    const out = [];
    if (src && Array.isArray(src.lines)) {
      const rows = src.lines.map((line, j) => {
        const n = (src.first_line || 1) + j;
        const here = byLine.get(n) || [];
        const d = divergent.get(n);
        const cells = here.map(([s, i]) => siteChip(k, s, i));
        if (d) cells.push(el("span", {class: "chip warn", title: `${fmt(d.split_requests)} warp instructions ran with part of the warp`},
                             el("b", {}, "divergent"), ` ${fmt(d.active_lanes_mean, 2)} of ${warpSize} lanes`));
        const bad = here.some(([s]) => siteFigures(s).bad) || !!d;
        return el("tr", {class: here.length || d ? (bad ? "site bad" : "site") : ""},
                  el("td", {class: "lineno"}, n), el("td", {class: "code"}, el("code", {}, line)), el("td", {class: "chips"}, cells));
      });
      out.push(el("p", {class: "file"}, `${src.file}`));
      out.push(el("table", {class: "source"},
                  el("thead", {}, el("tr", {}, el("th", {}, "line"), el("th", {}, "source"), el("th", {}, "figures of the accesses on this line"))),
                  el("tbody", {}, rows)));
    } else {
      out.push(el("p", {class: "note"}, "The kernel's source could not be read at exit: its access sites by file and line."));
    }
    const others = sites.map((s, i) => [s, i]).filter(([s]) => !src || s.file !== src.file ||
      !Array.isArray(src.lines) || s.line < src.first_line || s.line >= src.first_line + src.lines.length);
    if (others.length) {
      out.push(el("table", {class: "source"},
                  el("thead", {}, el("tr", {}, el("th", {}, "site"), el("th", {}, "figures"))),
                  el("tbody", {}, others.map(([s, i]) => el("tr", {class: "site"}, el("td", {}, `${baseName(s.file)}:${s.line}`),
                                                            el("td", {class: "chips"}, siteChip(k, s, i)))))));
    }
    return out;
  }

  // The sites' cards: the ones that cost more than they need first, then shared before global (a
  // bank picture is short), then by line.
  function siteCards(k) {
    const order = (k.sites || []).map((site, i) => [site, i]);
    const shared = (site) => (site.space === "shared" ? 1 : 0);
    order.sort((a, b) => (siteFigures(b[0]).bad - siteFigures(a[0]).bad) || (shared(b[0]) - shared(a[0])) ||
                         (a[0].line - b[0].line) || (a[1] - b[1]));
    return order.map(([site, i]) => {
      const f = siteFigures(site);
      const examples = examplesOf(site);
      const title = `${baseName(site.file)}:${site.line}: ${site.space} ${site.kind}`;
      let words;
      if (site.space === "shared") {
        words = `${fmt(site.requests)} requests, ${fmt(site.wavefronts)} wavefronts (${fmt(f.wavefrontsPerReq, 2)} per request, ` +
                `${f.ideal} at best), ${fmt(site.bank_conflicts)} bank conflicts, ${fmt(f.lanes, 2)} active lanes per request.`;
      } else {
        words = `${fmt(site.requests)} requests, ${fmt(site.sectors)} sectors (${fmt(f.sectorsPerReq, 2)} per request, ` +
                `${f.ideal} when ${fmt(f.lanes, 2)} active lanes access consecutive elements).`;
      }
      const card = el("figure", {class: "site-card" + (f.bad ? " bad" : ""), id: `site-${slug(k.name)}-${i}`},
                      el("figcaption", {}, el("b", {}, title), " — ", words));
      // A global site's requests share one picture (lanes and elements coloured by warp); a shared
      // site's each have their banks.
      const drawn = examples.slice(0, 4);
      if (site.space === "shared" && drawn.length) {
        // One request's banks; the other warps' behind a click (their wavefronts said first).
        card.appendChild(el("div", {class: "scroll"}, bankPicture(site, drawn[0])));
        if (drawn.length > 1) {
          const others = drawn.slice(1);
          card.appendChild(el("details", {class: "more"},
            el("summary", {}, "The other warps drawn: " +
               others.map((ex) => `warp ${ex.warp}, ${banksOf(ex).wavefronts} wavefront(s)`).join("; ")),
            others.map((ex) => el("div", {class: "scroll"}, bankPicture(site, ex)))));
        }
      } else if (drawn.length) {
        card.appendChild(el("div", {class: "scroll"}, globalPicture(site, drawn)));
      }
      if (drawn.length) {
        card.appendChild(el("p", {class: "note"}, drawn.length === 1
          ? "The request drawn is the site's worst, as the report recorded it."
          : `The ${drawn.length} requests drawn are the report's examples for this site, one per warp.`));
      }
      if (!examples.length) card.appendChild(el("p", {class: "note"}, "No example request was recorded for this site."));
      return card;
    });
  }

  // ---- the page ------------------------------------------------------------------------------
  // All kernels side by side (naive against tiled against padded), each name a link to its section.
  function overview() {
    const perReq = (m, s, r) => ratio(m[s], m[r]);
    const cell = (value, bad, digits) => el("td", {class: "num" + (bad ? " bad" : "")}, fmt(value, digits));
    const rows = kernels.map((k) => {
      const m = k.metrics || {};
      const sites = k.sites || [];
      const badGlobal = (kind) => sites.some((s) => s.space === "global" && s.kind === kind && siteFigures(s).bad);
      const ld = perReq(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
      const st = perReq(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
      const cl = m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"];
      const cs = m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"];
      const lanes = m["smsp__thread_inst_executed_per_inst_executed.ratio"];
      return el("tr", {},
                el("th", {scope: "row"}, el("a", {href: `#kernel-${slug(k.name)}`}, el("code", {}, k.name))),
                cell(ld, badGlobal("load"), 2), cell(st, badGlobal("store"), 2),
                cell(cl, cl > 0), cell(cs, cs > 0),
                cell(lanes, typeof lanes === "number" && lanes < warpSize - 0.005, 2),
                el("td", {class: "num"}, (k.occupancy && typeof k.occupancy.theoretical_pct === "number"
                                           ? fmt(k.occupancy.theoretical_pct, 1) + "%" : "–")));
    });
    const head = ["kernel", "global load sectors/request", "global store sectors/request", "shared load bank conflicts",
                  "shared store bank conflicts", "threads per warp instruction", "theoretical occupancy"];
    return el("section", {class: "overview"}, el("h2", {}, "All kernels"),
              el("table", {class: "figures overview"}, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
                 el("tbody", {}, rows)),
              el("p", {class: "note"}, "Red: more than the access needs (an access site that is not coalesced, a bank " +
                 "conflict, a warp instruction run by part of its warp). Click a kernel for its source and pictures."));
  }

  function kernelSection(k) {
    const m = k.metrics || {};
    const section = el("section", {class: "kernel", id: `kernel-${slug(k.name)}`, "data-kernel": k.name});
    section.appendChild(el("h2", {}, el("code", {}, k.name)));
    const launch = `${fmt(k.launches)} launch${k.launches === 1 ? "" : "es"}, grid ${dims(k.grid)}, block ${dims(k.block)}` +
                   (Array.isArray(k.grids) && k.grids.length > 1 ? " (first launch; later ones differ)" : "") +
                   `, ${fmt(k.shared_bytes_per_block)} bytes of shared memory per block, ${fmt(k.barriers)} barriers (__syncthreads, per warp)`;
    section.appendChild(el("p", {class: "launch"}, launch));
    section.appendChild(el("h3", {}, "Source, with the figures of each line's accesses"));
    for (const node of sourceTable(k)) section.appendChild(node);
    const bars = perRequestBars(k);
    if (bars) {
      section.appendChild(el("h3", {}, "Sectors and wavefronts per request"));
      section.appendChild(el("p", {class: "explain"},
        "Global memory moves 32-byte sectors: a warp's request costs as many sectors as its lanes' bytes touch. " +
        "Shared memory has 32 banks of 4 bytes: a request takes one wavefront per word any one bank must serve."));
      section.appendChild(el("div", {class: "scroll"}, bars));
      section.appendChild(el("h3", {}, "Access sites: which lane touched what (red first: they cost more than they need)"));
      for (const card of siteCards(k)) section.appendChild(card);
    }
    section.appendChild(el("h3", {}, "The kernel's figures, as Nsight Compute names them"));
    section.appendChild(headlineTable(k));
    const div = divergencePicture(k);
    section.appendChild(el("h3", {}, "Divergence"));
    section.appendChild(el("p", {class: "explain"},
      `${fmt(m["smsp__thread_inst_executed_per_inst_executed.ratio"], 2)} threads per warp instruction ` +
      "(Nsight Compute's smsp__thread_inst_executed_per_inst_executed.ratio). " +
      (div ? "These lines ran with part of a warp (its other lanes waited):" : "No access site ran with part of a warp.")));
    if (div) section.appendChild(el("div", {class: "scroll"}, div));
    section.appendChild(el("h3", {}, "Grid and block"));
    section.appendChild(el("div", {class: "scroll"}, layoutPicture(k)));
    section.appendChild(el("h3", {}, "Occupancy"));
    section.appendChild(el("p", {class: "explain"},
      "How many blocks of this launch one multiprocessor can hold, by each resource; the smallest wins. " +
      "Registers are unknown on a CPU (the report says so rather than guess)."));
    section.appendChild(el("div", {class: "scroll"}, occupancyPicture(k)));
    return section;
  }

  const main = document.getElementById("kernels");
  let hash = location.hash || "";
  try {
    hash = decodeURIComponent(hash);
  } catch (e) {  // a malformed %-escape: read the hash as it is
  }
  const only = /(?:^|[#&])kernel=([^&]+)/.exec(hash);
  const shown = only ? kernels.filter((k) => k.name === only[1]) : kernels;
  const cc = Array.isArray(device.compute_capability) ? device.compute_capability.join(".") : "?";
  document.getElementById("summary").textContent =
    `${kernels.length} kernel${kernels.length === 1 ? "" : "s"} on ${device.name || "the simulated device"} ` +
    `(compute capability ${cc}, ${fmt(device.multiprocessors)} multiprocessors), counted by ${report.tool || "cusim"} ` +
    "on every access of every lane.";
  if (!only && kernels.length > 1) main.appendChild(overview());
  if (only && !shown.length) main.appendChild(el("p", {class: "note"}, `No kernel named ${only[1]} in this report.`));
  for (const k of shown) main.appendChild(kernelSection(k));
  // The browser test reads these: the page drew without an exception.
  document.documentElement.setAttribute("data-cusim-kernels", String(shown.length));
  document.documentElement.setAttribute("data-cusim-status", "ok");
})();
