// SPDX-License-Identifier: MIT
// CUSIM_REPORT=DIR's page: DIR/report.html, drawn from the same JSON as DIR/report.json.
#pragma once

#include <string>
#include <string_view>

namespace cusim::sim {

/// One self-contained HTML document (no network, no other file) that shows report_json: the JSON is
/// inlined in <script type="application/json" id="cusim-report"> and the page's own script draws the
/// tables and SVG pictures from it. The page's HTML, CSS and JS are simulator/report_page/*, embedded
/// at build time.
std::string render_report_html(std::string_view report_json);

}  // namespace cusim::sim
