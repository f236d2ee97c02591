// SPDX-License-Identifier: MIT
// The report page's script (simulator/report_page/page.js): reads the JSON in #cusim-report and draws.
"use strict";
(function () {
  const report = JSON.parse(document.getElementById("cusim-report").textContent);
  const main = document.getElementById("kernels");
  document.getElementById("summary").textContent =
    (report.kernels || []).length + " kernel(s) on " + ((report.device || {}).name || "the simulated device");
  for (const k of report.kernels || []) {
    const section = document.createElement("section");
    section.className = "kernel";
    const h = document.createElement("h2");
    h.textContent = k.name;
    section.appendChild(h);
    main.appendChild(section);
  }
})();
